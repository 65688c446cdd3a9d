import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fastCopy, NOT_FAST } from '../src/check/fast-copy.ts'
import { snapshotByWalk } from '../src/check/snapshot.ts'
import { DEFAULT_LIMITS } from '../src/index.ts'
import { anyValue, parsedJson, plausibleParameters } from './arbitraries.ts'

const SMALL = { maxDepth: 4, maxNodes: 12, maxChars: 40 }

/** Inputs of every kind: JSON, near-JSON, anything fast-check makes, plausible tool schemas. */
const input = fc.oneof(parsedJson, anyValue, plausibleParameters)

describe('the snapshot fast pass', () => {
  it('returns exactly the copy the walk makes, and only for input the walk accepts, at default and small limits', {
    timeout: 600_000,
  }, () => {
    let fast = 0
    fc.assert(
      fc.property(input, fc.boolean(), (value, small) => {
        const limits = small ? SMALL : DEFAULT_LIMITS
        const copied = fastCopy(value, limits, undefined)
        if (copied === NOT_FAST) return
        fast++
        const walked = snapshotByWalk(value, limits)
        expect(walked.ok).toBe(true)
        // `isDeepStrictEqual` compares prototypes; vitest's strict equality reads `constructor`, which may be a key.
        expect(walked.ok && isDeepStrictEqual(copied, walked.value)).toBe(true)
        // Detached: a container is never handed back as it came.
        if (typeof value === 'object' && value !== null) expect(copied).not.toBe(value)
      }),
      { numRuns: 3000 },
    )
    // The agreement proves nothing if the pass never answers.
    expect(fast).toBeGreaterThan(500)
  })

  it('hands deep, cyclic, throwing and irregular input to the walk', () => {
    let deep: unknown = 'leaf'
    for (let level = 0; level < 40; level++) deep = { p: deep }
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic.self = cyclic
    const throwing = Object.defineProperty({}, 'type', {
      enumerable: true,
      get: () => {
        throw new Error('no')
      },
    })
    const setterOnly = Object.defineProperty({}, 'type', { enumerable: true, set: () => {} })
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = [1, , 3]
    for (const value of [deep, cyclic, throwing, setterOnly, { type: 'number', minimum: -0 }, sparse])
      expect(fastCopy(value, DEFAULT_LIMITS, undefined)).toBe(NOT_FAST)
  })

  it('copies what a getter returns, as the walk does', () => {
    const withGetter = Object.defineProperty({ type: 'object' }, 'properties', {
      enumerable: true,
      get: () => ({ path: { type: 'string' } }),
    })
    const copied = fastCopy(withGetter, DEFAULT_LIMITS, undefined)
    const walked = snapshotByWalk(withGetter, DEFAULT_LIMITS)
    expect(copied).toEqual({ type: 'object', properties: { path: { type: 'string' } } })
    expect(walked.ok && isDeepStrictEqual(copied, walked.value)).toBe(true)
  })
})
