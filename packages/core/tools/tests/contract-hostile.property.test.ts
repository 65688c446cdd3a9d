import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkToolParameters,
  createToolContract,
  type JsonObject,
  JsonSchemaError,
  PROFILE_IDS,
  type ProfileId,
  projectParameters,
  ToolArgsError,
  type ToolContract,
} from '../src/index.ts'
import { anyValue, objectOf, parsedJson, plausibleParameters } from './arbitraries.ts'
import { mcpParameters, valueFor } from './projection-arbitraries.ts'
import { expectLinearWork, tally } from './work.ts'

const TOOL = { tool: 'hostile', source: 'fuzz' }

function deepArray(depth: number): unknown {
  let node: unknown = 'leaf'
  for (let i = 0; i < depth; i++) node = [node]
  return node
}

function deepObject(depth: number, key = 'next'): unknown {
  let node: unknown = { value: 'leaf' }
  for (let i = 0; i < depth; i++) node = { value: 'v', [key]: node }
  return node
}

/** Arguments a model (or a broken client) could hand over, and worse. */
const hostileArgs: fc.Arbitrary<() => unknown> = fc.oneof(
  anyValue.map((v) => () => v),
  parsedJson.map((v) => () => v),
  fc.constantFrom(
    () => deepArray(5_000),
    () => deepObject(5_000),
    () => ({ input: deepArray(5_000), plugin: deepObject(5_000), items: [deepArray(5_000)] }),
    () => ({
      input: `${'['.repeat(5_000)}1${']'.repeat(5_000)}`,
      query: `${'{"next":'.repeat(5_000)}{}${'}'.repeat(5_000)}`,
    }),
    () => 'x'.repeat(2_000_000),
    () => ({ input: `{"a":"${'x'.repeat(1_000_000)}"}`, path: 'y'.repeat(1_000_000) }),
    () => objectOf(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i % 2 === 0 ? '{"a":1}' : [i]])),
    () => Array.from({ length: 50_000 }, () => '[1]'),
    () => ({ items: Array.from({ length: 20_000 }, () => '{"kind":"plugin","name":"x"}') }),
    () => ({ __proto__: null, constructor: '{}', toString: '[]' }),
    () => ({ big: 10n, input: 10n }),
    () => new Map([['a', 1]]),
    () => ({ input: Number.NaN, limit: Number.POSITIVE_INFINITY }),
  ),
)

/** Schemas the root contract accepts, including hostile-but-valid shapes (deep, wide, recursive). */
const acceptedSchema: fc.Arbitrary<unknown> = fc.oneof(
  mcpParameters,
  plausibleParameters,
  fc.constantFrom<unknown>(
    {
      type: 'object',
      properties: { input: {}, items: { type: 'array', items: { anyOf: [{ type: 'string' }, {}] } } },
    },
    {
      type: 'object',
      $defs: {
        N: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/N' } } },
      },
      properties: { plugin: { $ref: '#/$defs/N' } },
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object' }, {}] },
    },
    { $ref: '#', type: 'object', properties: {} },
    { type: 'object', additionalProperties: { oneOf: [{ type: 'array' }, { type: 'object' }] } },
  ),
)

/** Runs every entry point of a contract and fails on anything but the documented errors. */
function exercise(contract: ToolContract, args: unknown, profile: ProfileId): void {
  const projection = contract.projection(profile)
  expect(typeof projection.wire).toBe('object')
  expect(Array.isArray(contract.validate(args))).toBe(true)
  contract.normalizeArguments(args, profile)
  try {
    contract.parseArguments(args, profile)
  } catch (error) {
    expect(error).toBeInstanceOf(ToolArgsError)
  }
}

describe('no input makes the contract throw anything undocumented', () => {
  it('arbitrary accepted schemas and arbitrary arguments, every profile', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(acceptedSchema, hostileArgs, fc.constantFrom(...PROFILE_IDS), (schema, build, profile) => {
        let contract: ToolContract
        try {
          contract = createToolContract(schema, TOOL)
        } catch (error) {
          expect(error).toBeInstanceOf(JsonSchemaError)
          return
        }
        exercise(contract, build(), profile)
      }),
      { numRuns: 250 },
    )
  })

  it('arbitrary (mostly invalid) parameters throw only JsonSchemaError', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, plausibleParameters), (parameters) => {
        try {
          createToolContract(parameters, TOOL)
        } catch (error) {
          expect(error).toBeInstanceOf(JsonSchemaError)
        }
      }),
      { numRuns: 1_000 },
    )
  })

  it('near-valid arguments generated from the schema, every profile', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(
        mcpParameters.chain((schema) => valueFor(schema, schema).map((value) => ({ schema, value }))),
        ({ schema, value }) => {
          expect(checkToolParameters(schema).violations).toEqual([])
          const contract = createToolContract(schema, TOOL)
          for (const p of PROFILE_IDS) {
            exercise(contract, value, p)
            exercise(contract, JSON.parse(JSON.stringify(value ?? null)), p)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('JSON text nested 5,000 deep, and bigints, in a slot whose union has a JSON-text branch', () => {
    const contract = createToolContract(
      { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object' }, {}] } },
      TOOL,
    )
    const deep = {
      input: `${'['.repeat(5_000)}1${']'.repeat(5_000)}`,
      query: `${'{"next":'.repeat(5_000)}{}${'}'.repeat(5_000)}`,
    }
    for (const p of PROFILE_IDS) {
      exercise(contract, deep, p)
      exercise(contract, { big: 10n, list: [1n] }, p)
    }
  })

  // Every profile, twice, 50,000 levels: the walk is linear, but this is a lot of nodes for a loaded machine.
  it('arguments nested 5,000 deep along a recursive schema are a ToolArgsError at worst', {
    timeout: 600_000,
  }, () => {
    const schema = {
      type: 'object',
      $defs: {
        N: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/N' } } },
      },
      properties: { list: { $ref: '#/$defs/N' } },
    }
    const contract = createToolContract(schema, TOOL)
    for (const p of PROFILE_IDS) {
      exercise(contract, { list: deepObject(5_000) }, p)
      exercise(contract, { list: deepObject(50_000) }, p)
    }
  })
})

describe('nothing grows faster than the input (work counted, not timed)', () => {
  const meter = tally()
  const unionMap = createToolContract(
    { type: 'object', properties: {}, additionalProperties: { anyOf: [{ type: 'string' }, {}] } },
    TOOL,
    { meter },
  )
  const objectMap = createToolContract({ type: 'object', additionalProperties: { type: 'object' } }, TOOL, {
    meter,
  })
  const list = createToolContract(
    { type: 'object', properties: { items: { type: 'array', items: { anyOf: [{ type: 'integer' }, {}] } } } },
    TOOL,
    { meter },
  )
  const text = createToolContract(
    { type: 'object', properties: { input: {}, note: { type: 'string' } } },
    TOOL,
    {
      meter,
    },
  )
  const measured = (run: () => void): number => {
    meter.reset()
    run()
    return meter.total()
  }

  const wide = (n: number, value: unknown) => objectOf(Array.from({ length: n }, (_, i) => [`k${i}`, value]))

  it('a wide object whose every key reads two ways (union with a JSON-text branch)', () => {
    expectLinearWork(
      'union map',
      (n) => measured(() => unionMap.parseArguments(wide(n, '{"a":1}'), 'deepseek')),
      1_000,
    )
  })

  it('a wide object of stringified containers in container-only slots', () => {
    const work = (n: number) => measured(() => objectMap.parseArguments(wide(n, '{"a":1}'), 'deepseek'))
    expectLinearWork('stringified map', work, 1_000)
    expect(objectMap.parseArguments(wide(2, '{"a":1}'), 'deepseek')).toEqual({ k0: { a: 1 }, k1: { a: 1 } })
  })

  it('a long array of union items', () => {
    expectLinearWork(
      'union list',
      (n) =>
        measured(() => list.parseArguments({ items: Array.from({ length: n }, () => '[1]') }, 'deepseek')),
      1_000,
    )
  })

  it('huge JSON text and huge strings: one value node each, whatever their length', () => {
    const work = (n: number) =>
      measured(() =>
        text.normalizeArguments(
          { input: JSON.stringify(Array.from({ length: n }, (_, i) => ({ i }))), note: 'x'.repeat(n * 20) },
          'deepseek',
        ),
      )
    work(1_000) // the first call also projects the schema
    expect(work(20_000)).toBe(work(1_000))
  })

  it('projecting a schema with many properties', () => {
    const schemaOf = (n: number): JsonObject =>
      objectOf([
        ['type', 'object'],
        [
          'properties',
          objectOf(
            Array.from({ length: n }, (_, i) => [
              `p${i}`,
              i % 3 === 0 ? { type: ['string', 'null'] } : { description: 'x' },
            ]),
          ),
        ],
        ['required', Array.from({ length: n / 2 }, (_, i) => `p${i * 2}`)],
      ]) as JsonObject
    for (const p of ['openai-strict', 'gemini', 'codex'] as const)
      expectLinearWork(
        `projection (${p})`,
        (n) => measured(() => projectParameters(schemaOf(n), p, { meter })),
        500,
      )
  })
})
