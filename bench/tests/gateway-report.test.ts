import { childPids, newChildren } from '@dsh-harden/lazy-mcp/testing'
import { describe, expect, it } from 'vitest'
import { compareAsync } from '../src/async-compare.ts'
import { formatSizes, tokens } from '../src/gateway-report.ts'

/**
 * Work that takes at least `ms` on the clock the harness reads (`process.hrtime`), then yields. A timer would not do:
 * libuv schedules on a millisecond loop clock, so a 25 ms timeout can end 24.8 ms after it started by `hrtime`.
 */
async function work(ms: number): Promise<void> {
  const end = process.hrtime.bigint() + BigInt(ms * 1e6)
  while (process.hrtime.bigint() < end) {
    // spin: the awaited work being timed
  }
  await Promise.resolve()
}

describe('async comparisons', () => {
  it('times awaited work per side, alternating, and keeps the per-op samples after warm-up', async () => {
    const order: string[] = []
    const side = (label: string, ms: number) => ({
      label,
      prepare: async () => ({
        run: async () => {
          order.push(label)
          await work(ms)
          return [ms * 1e6]
        },
        dispose: async () => {},
      }),
    })
    const result = await compareAsync({
      name: 'sleep',
      opsPerSample: 1,
      warmup: 1,
      rounds: 3,
      peer: side('fast', 5),
      subject: side('slow', 25),
    })
    expect(order).toEqual(['fast', 'slow', 'slow', 'fast', 'fast', 'slow', 'slow', 'fast'])
    expect(result.peerSamples).toEqual([5e6, 5e6, 5e6])
    // Lower bounds only: each side's work takes at least its length, however loaded the machine is.
    expect(result.peer.nsPerOp).toBeGreaterThanOrEqual(5e6)
    expect(result.subject.nsPerOp).toBeGreaterThanOrEqual(25e6)
  })
})

describe('context sizes', () => {
  it('estimates tokens as bytes ÷ 4 and prints both sides with the ratio', () => {
    expect(tokens(41_598)).toBe(10_400)
    const text = formatSizes([
      {
        kind: 'size',
        name: 'tools',
        peer: { label: 'stock', bytes: 40_000 },
        subject: { label: 'gateway', bytes: 2_000 },
        ratio: 0.05,
        notes: ['a note'],
      },
    ])
    expect(text).toMatch(/tools\s+stock\s+40,000\s+10,000\s+gateway\s+2,000\s+500\s+0\.050×/)
    expect(text).toContain('  - a note')
    expect(formatSizes([])).toBe('')
  })
})

describe('child processes', () => {
  it('sees no new children when nothing was spawned', () => {
    const before = childPids()
    expect(before).toBeInstanceOf(Set)
    expect(newChildren(before)).toEqual([])
  })
})
