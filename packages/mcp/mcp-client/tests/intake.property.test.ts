import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { intakeToolList, sdkAcceptsSchema } from '../src/index.ts'

/**
 * The calls every walk over a JSON value is made of (`Array.isArray`, `Object.keys` / `entries` / `values`,
 * `Reflect.ownKeys`), counted while `run` runs: the intake's work in nodes visited, whatever the machine's load.
 */
function structureReads(run: () => void): number {
  let reads = 0
  const saved = {
    isArray: Array.isArray,
    keys: Object.keys,
    entries: Object.entries,
    values: Object.values,
    ownKeys: Reflect.ownKeys,
  }
  const counting = <F extends (...args: never[]) => unknown>(original: F): F =>
    ((...args: Parameters<F>) => {
      reads++
      return original(...args)
    }) as F
  Array.isArray = counting(saved.isArray) as typeof Array.isArray
  Object.keys = counting(saved.keys)
  Object.entries = counting(saved.entries)
  Object.values = counting(saved.values)
  Reflect.ownKeys = counting(saved.ownKeys)
  try {
    run()
  } finally {
    Array.isArray = saved.isArray
    Object.keys = saved.keys
    Object.entries = saved.entries
    Object.values = saved.values
    Reflect.ownKeys = saved.ownKeys
  }
  return reads
}

const name = fc.stringMatching(/^[a-z][a-z0-9_/]{0,15}$/)
const leaf = fc.constantFrom<Record<string, unknown>>(
  { type: 'string' },
  { type: 'integer', minimum: 0 },
  { type: 'boolean', description: 'flag' },
  { type: 'array', items: { type: 'string' } },
  { enum: ['a', 'b'] },
)
const compliantSchema = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,8}$/), leaf, { maxKeys: 5 })
  .chain((properties) =>
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
    }),
  )
const oneMeaningSchema = fc.constantFrom<unknown>(
  {},
  { $schema: 'http://json-schema.org/draft-07/schema#' },
  { type: 'object' },
  { type: 'object', properties: {}, required: null },
  undefined,
)
const badSchema = fc.constantFrom<unknown>({ type: ['object', 'null'] }, 'text', {
  type: 'object',
  anyOf: [{}],
})

function uniqueTools(schemas: fc.Arbitrary<unknown>) {
  return fc.uniqueArray(fc.record({ name, inputSchema: schemas }), { selector: (t) => t.name, maxLength: 30 })
}

describe('intakeToolList properties', () => {
  it('passes compliant tools through as the very same objects, byte-identical when serialized', () => {
    fc.assert(
      fc.property(uniqueTools(compliantSchema), (tools) => {
        const before = JSON.stringify(tools)
        const result = intakeToolList(tools, { server: 's' })
        expect(result.tools).toHaveLength(tools.length)
        for (const [i, tool] of result.tools.entries()) expect(tool).toBe(tools[i])
        expect(JSON.stringify(result.tools)).toBe(before)
        expect(result.repairs).toEqual([])
      }),
    )
  })

  it('judges each tool on its own: a list is the concatenation of its single-tool intakes', () => {
    fc.assert(
      fc.property(uniqueTools(fc.oneof(compliantSchema, oneMeaningSchema, badSchema)), (tools) => {
        const whole = intakeToolList(tools, { server: 's' })
        const parts = tools.map((tool) => intakeToolList([tool], { server: 's' }))
        expect(whole.tools).toEqual(parts.flatMap((p) => p.tools))
        expect(whole.diagnostics.length).toBe(parts.reduce((n, p) => n + p.diagnostics.length, 0))
      }),
    )
  })

  it('leaves every accepted tool acceptable to the MCP SDK, and a second intake changes nothing', () => {
    fc.assert(
      fc.property(uniqueTools(fc.oneof(compliantSchema, oneMeaningSchema, badSchema)), (tools) => {
        const first = intakeToolList(tools, { server: 's' })
        for (const tool of first.tools) expect(sdkAcceptsSchema(tool.inputSchema)).toBe(true)
        const second = intakeToolList(first.tools, { server: 's' })
        for (const [i, tool] of second.tools.entries()) expect(tool).toBe(first.tools[i])
        expect(second.repairs).toEqual([])
        expect(first.tools.length + first.diagnostics.length).toBe(tools.length)
      }),
    )
  })

  it('never throws on arbitrary JSON entries', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), (entries) => {
        const result = intakeToolList(entries, { server: 's', policy: 'spec' })
        expect(result.tools.length).toBeLessThanOrEqual(entries.length)
      }),
    )
  })

  it('is linear in the number of tools: 10x the tools, 10x the structure reads (counted, never timed)', () => {
    const make = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `t${i}`,
        inputSchema: i % 7 === 0 ? {} : { type: 'object', properties: { a: { type: 'string' } } },
      }))
    const small = structureReads(() => intakeToolList(make(300), { server: 's' }))
    const large = structureReads(() => intakeToolList(make(3000), { server: 's' }))
    expect(small).toBeGreaterThan(300)
    expect(large / small).toBeLessThanOrEqual(10 * 1.1)
  })
})
