import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkToolParameters, enforceToolParameters, JsonSchemaError, snapshotJson } from '../src/index.ts'
import { anyValue, breakForRepair, parsedJson, plausibleParameters } from './arbitraries.ts'

const TOOL = { tool: 'prop', source: 'fast-check' }

/** JSON.stringify, or undefined where it throws (bigints). */
function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}

describe('valid parameters pass through unchanged, detached', () => {
  it('enforce returns a detached copy with the same JSON text, in both modes', { timeout: 600_000 }, () => {
    let valid = 0
    fc.assert(
      fc.property(plausibleParameters, (parameters) => {
        if (checkToolParameters(parameters).violations.length > 0) return
        valid++
        const before = JSON.stringify(parameters)
        const strict = enforceToolParameters(parameters, TOOL)
        const repaired = enforceToolParameters(parameters, TOOL, {
          mode: 'repair',
          onRepair: () => expect.fail('no repair'),
        })
        for (const result of [strict, repaired]) {
          expect(JSON.stringify(result)).toBe(before)
          if (typeof parameters === 'object' && parameters !== null) expect(result).not.toBe(parameters)
        }
        expect(JSON.stringify(parameters)).toBe(before)
      }),
      { numRuns: 2_000 },
    )
    expect(valid).toBeGreaterThan(100)
  })
})

describe('repair', () => {
  it('is idempotent: a repaired schema has no violations and passes through unchanged', {
    timeout: 600_000,
  }, () => {
    let repaired = 0
    fc.assert(
      fc.property(plausibleParameters, fc.nat(3), (parameters, how) => {
        const broken = breakForRepair(parameters, how)
        const before = JSON.stringify(broken)
        let result: unknown
        let reported = false
        try {
          result = enforceToolParameters(broken, TOOL, { mode: 'repair', onRepair: () => (reported = true) })
        } catch (error) {
          expect(error).toBeInstanceOf(JsonSchemaError)
          return
        }
        expect(JSON.stringify(broken)).toBe(before)
        if (!reported) return
        repaired++
        expect(checkToolParameters(result).violations).toEqual([])
        expect(JSON.stringify(enforceToolParameters(result, TOOL, { mode: 'repair' }))).toBe(
          JSON.stringify(result),
        )
      }),
      { numRuns: 2_000 },
    )
    expect(repaired).toBeGreaterThan(100)
  })
})

describe('snapshotJson', () => {
  it('copies exactly what JSON.stringify would send, whenever it succeeds', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, parsedJson, plausibleParameters), (value) => {
        const result = snapshotJson(value)
        if (!result.ok) return
        const text = JSON.stringify(value)
        expect(JSON.stringify(result.value)).toBe(text)
        expect(result.value).toEqual(JSON.parse(text))
      }),
      { numRuns: 3_000 },
    )
  })

  it('succeeds on every value that JSON.stringify preserves', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, parsedJson, fc.jsonValue()), (value) => {
        const text = stringify(value)
        fc.pre(text !== undefined && isDeepStrictEqual(JSON.parse(text), value))
        const result = snapshotJson(value)
        expect(result.ok).toBe(true)
        expect(result.ok && result.value).toEqual(JSON.parse(text))
      }),
      { numRuns: 3_000 },
    )
  })
})
