import { describe, expect, it } from 'vitest'
import { compare, type Side } from '../src/harness.ts'

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
    expect(result.ratio.median).toBeGreaterThan(1.5)
    expect(result.ratio.median).toBeLessThan(3)
    expect(result.addedNsPerOp.median).toBeGreaterThan(50_000)
    expect(result.peer.nsPerOp).toBeGreaterThanOrEqual(100_000)
  })

  it('refuses a comparison that would measure nothing', async () => {
    const peer = side('peer', 1, [])
    await expect(
      compare({ name: 'empty', opsPerSample: 0, peer, subject: peer, warmup: 0, rounds: 1 }),
    ).rejects.toThrow(/must be positive/)
  })
})
