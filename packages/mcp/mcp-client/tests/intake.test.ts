import { describe, expect, it } from 'vitest'
import { seed000Tools } from '../fixtures/index.ts'
import { intakeToolList } from '../src/index.ts'

const OBJECT = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
const tool = (name: string, inputSchema: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema,
  ...extra,
})

describe('intakeToolList', () => {
  it('returns compliant tools as the very same objects, with nothing to report', () => {
    const listed = [tool('a', OBJECT), tool('b', { type: 'object', properties: {} })]
    const result = intakeToolList(listed, { server: 's' })
    expect(result.tools).toHaveLength(2)
    expect(result.tools[0]).toBe(listed[0])
    expect(result.tools[1]).toBe(listed[1])
    expect(result.repairs).toEqual([])
    expect(result.diagnostics).toEqual([])
  })

  it.each([
    ['{}', {}, { type: 'object', properties: {} }, '', 'root-empty'],
    [
      'a schema with only $schema',
      { $schema: 'http://json-schema.org/draft-07/schema#' },
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
      '',
      'root-empty',
    ],
    [
      'missing properties',
      { type: 'object' },
      { type: 'object', properties: {} },
      '/properties',
      'properties-not-map',
    ],
    [
      'required: null',
      { type: 'object', properties: {}, required: null },
      { type: 'object', properties: {} },
      '/required',
      'required-not-array',
    ],
    ['no inputSchema', undefined, { type: 'object', properties: {} }, '', 'parameters-missing'],
    [
      'a boolean property schema',
      { type: 'object', properties: { x: true } },
      { type: 'object', properties: { x: {} } },
      '/properties/x',
      'property-not-schema',
    ],
  ])('repairs %s, which has exactly one meaning', (_label, listed, repaired, pointer, rule) => {
    const result = intakeToolList([tool('t', listed)], { server: 'srv' })
    expect(result.tools[0]?.inputSchema).toEqual(repaired)
    expect(result.repairs).toEqual([
      {
        server: 'srv',
        tool: 't',
        schema: 'inputSchema',
        entry: 0,
        repaired: [expect.objectContaining({ pointer, rule })],
      },
    ])
    expect(result.diagnostics).toEqual([])
  })

  it('isolates a tool whose schema has more than one reading, naming server, tool, pointer and rule', () => {
    const listed = [
      tool('good', OBJECT),
      tool('bad', { type: ['object', 'null'] }),
      tool('also-good', OBJECT),
    ]
    const result = intakeToolList(listed, { server: 'srv' })
    expect(result.tools.map((t) => t.name)).toEqual(['good', 'also-good'])
    expect(result.diagnostics).toEqual([
      {
        server: 'srv',
        tool: 'bad',
        schema: 'inputSchema',
        effect: 'isolated',
        entry: 1,
        violations: [expect.objectContaining({ pointer: '/type', rule: 'root-type-array' })],
      },
    ])
  })

  it('treats the output schema like the input schema: repairs {} and keeps the tool', () => {
    const result = intakeToolList([tool('t', OBJECT, { outputSchema: {} })], { server: 's' })
    expect(result.tools[0]?.outputSchema).toEqual({ type: 'object', properties: {} })
    expect(result.repairs).toEqual([expect.objectContaining({ tool: 't', schema: 'outputSchema' })])
  })

  it('drops an output schema that cannot be used, for that tool only (output-unchecked)', () => {
    const listed = [
      tool('t', OBJECT, { outputSchema: { type: 'object', properties: { n: { type: 'strin' } } } }),
      tool('u', OBJECT, { outputSchema: { type: 'object', properties: { n: { type: 'string' } } } }),
    ]
    const result = intakeToolList(listed, { server: 's' })
    expect(result.tools).toHaveLength(2)
    expect(result.tools[0]).not.toHaveProperty('outputSchema')
    expect(result.tools[0]?.inputSchema).toBe(OBJECT)
    expect(result.tools[1]).toBe(listed[1])
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        tool: 't',
        schema: 'outputSchema',
        effect: 'output-unchecked',
        violations: [expect.objectContaining({ pointer: '/properties/n/type', rule: 'type-unknown' })],
      }),
    ])
  })

  it('drops an output schema that ajv cannot compile (the SDK listTools would fail the page over it)', () => {
    const listed = [
      tool('t', OBJECT, { outputSchema: { type: 'object', properties: {}, $ref: '#/nowhere' } }),
    ]
    const result = intakeToolList(listed, { server: 's' })
    expect(result.tools[0]).not.toHaveProperty('outputSchema')
    expect(result.diagnostics[0]).toMatchObject({ effect: 'output-unchecked' })
  })

  it('isolates entries that are not tools, nameless tools, duplicates and SDK-rejected fields', () => {
    const listed = [
      42,
      { inputSchema: OBJECT },
      tool('dup', OBJECT),
      tool('dup', OBJECT),
      tool('ann', OBJECT, { annotations: { readOnlyHint: 'yes' } }),
      tool('fine', OBJECT),
    ]
    const result = intakeToolList(listed, { server: 's' })
    expect(result.tools.map((t) => t.name)).toEqual(['fine'])
    expect(
      result.diagnostics.map((d) => [d.tool, d.entry, d.violations[0]?.pointer, d.violations[0]?.rule]),
    ).toEqual([
      ['#0', 0, '', 'unreadable'],
      ['#1', 1, '/name', 'unreadable'],
      ['dup', 2, '/name', 'unreadable'],
      ['dup', 3, '/name', 'unreadable'],
      ['ann', 4, '/annotations/readOnlyHint', 'keyword-type'],
    ])
  })

  it('under the spec policy changes only what the MCP SDK rejects', () => {
    const untouched = [tool('noprops', { type: 'object' }), tool('union', { type: 'object', anyOf: [{}] })]
    const result = intakeToolList([...untouched, tool('empty', {})], { server: 's', policy: 'spec' })
    expect(result.tools[0]).toBe(untouched[0])
    expect(result.tools[1]).toBe(untouched[1])
    expect(result.tools[2]?.inputSchema).toEqual({ type: 'object', properties: {} })
    expect(result.repairs).toHaveLength(1)
  })

  it('projects both schemas of each accepted tool when given a profile', () => {
    const listed = [
      tool('t', { type: 'object', properties: { a: { type: 'string' } } }, { outputSchema: OBJECT }),
    ]
    const result = intakeToolList(listed, { server: 's', profile: 'openai-strict' })
    const projection = result.projections?.[0]
    expect(projection?.tool).toBe('t')
    expect(projection?.input.wire).toMatchObject({ additionalProperties: false, required: ['a'] })
    expect(projection?.output?.wire).toMatchObject({ additionalProperties: false })
  })

  it('takes the seed 000 list: 76 tools, 7 repaired, none isolated', () => {
    const result = intakeToolList(seed000Tools(), { server: 'feyagate' })
    expect(result.tools).toHaveLength(76)
    expect(result.repairs.map((r) => r.entry)).toEqual([56, 58, 61, 64, 67, 70, 73])
    expect(result.diagnostics).toEqual([])
  })
})
