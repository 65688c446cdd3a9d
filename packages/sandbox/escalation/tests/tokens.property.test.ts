import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type DenialBinding, DenialTokenStore } from '../src/index.ts'
import { modeArb } from './arbitraries.ts'

const bindingArb: fc.Arbitrary<DenialBinding> = fc.record({
  session: fc.constantFrom('s1', 's2'),
  tool: fc.constantFrom('bash', 'write'),
  target: fc.constantFrom('echo hi > f.txt', '/ws/g.txt', 'rm -rf /'),
  workdir: fc.constantFrom('/ws', '/ws/sub'),
  mode: modeArb,
  effect: fc.constantFrom('e1', 'e2'),
})

function clock(start = 1_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

/** One fixed binding, for the tests that are about the store rather than the binding. */
const b: DenialBinding = {
  session: 's',
  tool: 'bash',
  target: 'x',
  workdir: '/w',
  mode: 'read-only',
  effect: 'e',
}

describe('DenialTokenStore', () => {
  it('redeems a fresh token exactly once, for exactly its binding', () => {
    fc.assert(
      fc.property(bindingArb, bindingArb, (issued, other) => {
        const store = new DenialTokenStore()
        const { token } = store.issue(issued)
        const same = JSON.stringify(issued) === JSON.stringify(other)
        if (!same) expect(store.redeem(token, other)).toMatchObject({ ok: false, reason: 'mismatch' })
        expect(store.redeem(token, issued)).toEqual({ ok: true })
        expect(store.redeem(token, issued)).toMatchObject({ ok: false, reason: 'used' })
      }),
    )
  })

  it('refuses a token after its lifetime, and accepts it just before', () => {
    fc.assert(
      fc.property(
        bindingArb,
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (b, ttl, wait) => {
          const time = clock()
          const store = new DenialTokenStore({ ttlMs: ttl, now: time.now })
          const { token } = store.issue(b)
          time.advance(wait)
          const result = store.redeem(token, b)
          expect(result.ok).toBe(wait < ttl)
        },
      ),
    )
  })

  it('refuses anything it did not issue', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue()), bindingArb, (token, b) => {
        const store = new DenialTokenStore()
        store.issue(b)
        expect(store.redeem(token, b)).toMatchObject({ ok: false })
      }),
    )
  })

  it("a mismatched attempt does not burn the real retry's token", () => {
    const store = new DenialTokenStore()
    const { token } = store.issue(b)
    expect(store.redeem(token, { ...b, session: 'other' }).ok).toBe(false)
    expect(store.redeem(token, b).ok).toBe(true)
  })

  it('issues distinct, unguessable tokens and forgets the oldest past its bound', () => {
    const store = new DenialTokenStore({ maxTokens: 2 })
    const tokens = [store.issue(b).token, store.issue(b).token, store.issue(b).token]
    expect(new Set(tokens).size).toBe(3)
    for (const token of tokens) expect(token).toMatch(/^esc_[A-Za-z0-9_-]{22}$/)
    expect(store.redeem(tokens[0], b)).toMatchObject({ ok: false, reason: 'unknown' })
    expect(store.size).toBe(2)
  })

  it('rejects a lifetime that is not a positive number', () => {
    expect(() => new DenialTokenStore({ ttlMs: 0 })).toThrow(/ttlMs must be a positive number/)
  })
})
