import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject } from '../src/index.ts'
import { parsedJson, plausibleParameters } from './arbitraries.ts'
import { schemaAndValue } from './projection-arbitraries.ts'

/**
 * The contract's validator (memoized `$ref` verdicts, RE2 patterns, hot without `allErrors`) agrees with plain ajv
 * (`$ref`s as ajv resolves them, its own regex engine) on every verdict: memoizing changes the work, never the answer.
 */
const TOOL = { tool: 'agreement', source: 'fast-check' }
const options = { strict: false, allErrors: false, logger: false as const, validateSchema: false }
const plain = { draft07: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) }
for (const ajv of Object.values(plain)) addFormats.default(ajv)
const cache = new Map<string, ValidateFunction | null>()

function plainValidator(schema: JsonObject): ValidateFunction | null {
  const key = JSON.stringify(schema)
  if (!cache.has(key)) {
    const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
    const ajv = dialect.includes('2020-12')
      ? plain.draft2020
      : dialect.includes('2019-09')
        ? plain.draft2019
        : plain.draft07
    const { $id: _id, ...anonymous } = schema
    try {
      cache.set(key, ajv.compile(anonymous))
    } catch {
      cache.set(key, null)
    }
  }
  return cache.get(key) ?? null
}

function agree(schema: JsonObject, value: unknown): boolean {
  const reference = plainValidator(schema)
  const contract = createToolContract(schema, TOOL)
  if (reference === null || contract.validatorProblem !== undefined) return false
  let expected: boolean
  try {
    expected = reference(value) as boolean
  } catch {
    return false // the reference itself overflowed: nothing to compare
  }
  expect(contract.validate(value).length === 0, JSON.stringify({ schema, value })).toBe(expected)
  return true
}

describe('the contract validator agrees with plain ajv', () => {
  it('on MCP-like schemas with $defs and recursive $refs, valid and mutated values', {
    timeout: 600_000,
  }, () => {
    let compared = 0
    fc.assert(
      fc.property(schemaAndValue, parsedJson, fc.boolean(), ({ schema, value }, other, swap) => {
        if (agree(schema, swap ? other : value)) compared++
      }),
      { numRuns: 600 },
    )
    expect(compared).toBeGreaterThan(300)
  })

  it('on arbitrary accepted parameters', { timeout: 600_000 }, () => {
    let compared = 0
    fc.assert(
      fc.property(plausibleParameters, parsedJson, (schema, value) => {
        if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return
        try {
          if (agree(schema as JsonObject, value)) compared++
        } catch (error) {
          // A schema the root contract refuses is not this property's business.
          if (!(error instanceof Error && error.name === 'JsonSchemaError')) throw error
        }
      }),
      { numRuns: 600 },
    )
    expect(compared).toBeGreaterThan(50)
  })

  it('on $ref beside other keywords, self-references, and a chain of unions of $refs', () => {
    const cases: [JsonObject, unknown[]][] = [
      [
        {
          type: 'object',
          properties: { a: { $ref: '#/$defs/s', minLength: 3 } },
          $defs: { s: { type: 'string' } },
        },
        [{ a: 'abcd' }, { a: 'ab' }, { a: 1 }],
      ],
      [
        { type: 'object', properties: { n: { type: 'number' }, self: { $ref: '#' } } },
        [{ self: { self: { n: 1 } } }, { self: { self: { n: 'x' } } }],
      ],
      [
        {
          type: 'object',
          properties: { a: { $ref: '#/$defs/L0' } },
          $defs: {
            L0: { anyOf: [{ $ref: '#/$defs/L1' }, { $ref: '#/$defs/L1' }] },
            L1: { anyOf: [{ $ref: '#/$defs/leaf' }, { type: 'null' }] },
            leaf: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
          },
        },
        [{ a: { x: 'y' } }, { a: null }, { a: 5 }, { a: { x: 1 } }],
      ],
    ]
    for (const [schema, values] of cases) for (const value of values) expect(agree(schema, value)).toBe(true)
  })
})
