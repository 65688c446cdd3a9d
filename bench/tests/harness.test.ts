import { describe, expect, it } from 'vitest'
import { alternate, compare, type Side } from '../src/harness.ts'

function busy(micros: number): void {
  const end = process.hrtime.bigint() + BigInt(micros * 1000)
  while (process.hrtime.bigint() < end) {
    // spin: the work being timed
  }
}

function side(label: string, micros: number, log: string[]): Side {
  return {
    label,
    prepare() {
      log.push(`prepare ${label}`)
      return { run: () => busy(micros), dispose: () => void log.push(`dispose ${label}`) }
    },
  }
}

describe('compare', () => {
  it('alternates which side runs first and gives every sample a fresh, disposed trial', async () => {
    const log: string[] = []
    await compare({
      name: 'order',
      opsPerSample: 1,
      peer: side('A', 1, log),
      subject: side('B', 1, log),
      warmup: 1,
      rounds: 3,
    })
    const firsts = log.filter((_, index) => index % 4 === 0)
    expect(firsts).toEqual(['prepare A', 'prepare B', 'prepare A', 'prepare B'])
    expect(log.filter((entry) => entry.startsWith('prepare')).length).toBe(8)
    expect(log.filter((entry) => entry.startsWith('dispose')).length).toBe(8)
  })

  it('reports subject ÷ peer and the time the subject adds per operation', async () => {
    const result = await compare({
      name: 'double',
      opsPerSample: 4,
      peer: side('peer', 400, []),
      subject: side('subject', 800, []),
      warmup: 2,
      rounds: 15,
    })
    // Lower bounds only: each side's work takes at least its length, however loaded the machine is.
    expect(result.peer.nsPerOp).toBeGreaterThanOrEqual(100_000)
    expect(result.subject.nsPerOp).toBeGreaterThanOrEqual(200_000)
  })

  it('reduces each round to subject ÷ peer and the ns the subject adds per operation', async () => {
    // Timed by a fake clock: peer 400 ns, subject 800 ns, then 1,200 in one round, per sample of 4 operations.
    const times: Record<string, number[]> = { peer: [400, 400, 400, 400], subject: [800, 800, 1200, 800] }
    const { result } = await alternate(
      {
        name: 'fake clock',
        opsPerSample: 4,
        peer: { label: 'peer' },
        subject: { label: 'subject' },
        warmup: 1,
        rounds: 3,
      },
      async (side) => ({ ns: times[side.label]!.shift()!, samples: [] }),
    )
    expect(result.ratio).toEqual({ median: 2, p25: 2, p75: 2.5 })
    expect(result.addedNsPerOp).toEqual({ median: 100, p25: 100, p75: 150 })
    expect(result.peer.nsPerOp).toBe(100)
  })

  it('refuses a comparison that would measure nothing', async () => {
    const peer = side('peer', 1, [])
    await expect(
      compare({ name: 'empty', opsPerSample: 0, peer, subject: peer, warmup: 0, rounds: 1 }),
    ).rejects.toThrow(/must be positive/)
  })
})
