import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { intakeToolList, sdkAcceptsSchema } from '../src/index.ts'

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

  it('is linear in the number of tools (10x the tools takes well under 30x the time)', () => {
    const make = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `t${i}`,
        inputSchema: i % 7 === 0 ? {} : { type: 'object', properties: { a: { type: 'string' } } },
      }))
    const time = (n: number) => {
      const tools = make(n)
      const start = performance.now()
      for (let k = 0; k < 5; k++) intakeToolList(tools, { server: 's' })
      return performance.now() - start
    }
    time(200)
    const small = time(300)
    const large = time(3000)
    expect(large / small).toBeLessThan(30)
  })
})
