import { describe, expect, it } from 'vitest'
import { enforceToolParameters, JsonSchemaError, type RepairReport } from '../src/index.ts'

const TOOL = { tool: 'fetch_page', source: 'mcp:web' }

/** A realistic MCP `inputSchema` (draft-07, closed object, formats, bounds, a nested union). */
function mcpSchema() {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'Page to fetch' },
      max_length: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 5000 },
      start_index: { type: 'integer', minimum: 0, default: 0 },
      raw: { type: 'boolean', default: false },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      auth: {
        anyOf: [
          { type: 'object', properties: { token: { type: 'string', minLength: 1 } }, required: ['token'] },
          { type: 'null' },
        ],
      },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, uniqueItems: true },
    },
    required: ['url'],
    additionalProperties: false,
  }
}

function repair(parameters: unknown): { result: unknown; reports: RepairReport[] } {
  const reports: RepairReport[] = []
  const result = enforceToolParameters(parameters, TOOL, { mode: 'repair', onRepair: (r) => reports.push(r) })
  return { result, reports }
}

describe('valid parameters pass through untouched', () => {
  it('returns a detached copy of a realistic MCP schema, byte for byte the same JSON, in both modes', () => {
    const schema = mcpSchema()
    const before = JSON.stringify(schema)
    for (const mode of ['throw', 'repair'] as const) {
      const result = enforceToolParameters(schema, TOOL, { mode })
      expect(result).not.toBe(schema)
      expect(JSON.stringify(result)).toBe(before)
    }
    expect(JSON.stringify(schema)).toBe(before)
  })

  it('does not call onRepair when nothing was repaired', () => {
    const { result, reports } = repair({ type: 'object', properties: {} })
    expect(reports).toEqual([])
    expect(result).toEqual({ type: 'object', properties: {} })
  })

  it('never mutates the declared value, even when it repairs it', () => {
    const declared = { cmd: { type: 'string', required: true } }
    const before = JSON.stringify(declared)
    const { result } = repair(declared)
    expect(result).not.toBe(declared)
    expect(JSON.stringify(declared)).toBe(before)
  })
})

describe('repair mode fixes what has exactly one meaning', () => {
  it('wraps the #297 bare table and hoists `required: true` into the root `required`', () => {
    const { result, reports } = repair({
      images: { type: 'array', items: { type: 'string' }, required: true },
      prompt: { type: 'string' },
    })
    expect(result).toEqual({
      type: 'object',
      properties: { images: { type: 'array', items: { type: 'string' } }, prompt: { type: 'string' } },
      required: ['images'],
    })
    expect(reports).toHaveLength(1)
    expect(reports[0]!.identity).toEqual(TOOL)
    expect(reports[0]!.repaired.map((v) => v.rule)).toEqual(['bare-property-table', 'required-in-property'])
  })

  it('wraps a #447 bare table for a `cmd` tool', () => {
    const { result, reports } = repair({ cmd: { type: 'string' } })
    expect(result).toEqual({ type: 'object', properties: { cmd: { type: 'string' } } })
    expect(reports[0]!.repaired.map((v) => v.rule)).toEqual(['bare-property-table'])
  })

  it('turns `{}` into an object with no properties', () => {
    const { result, reports } = repair({})
    expect(result).toEqual({ type: 'object', properties: {} })
    expect(reports[0]!.repaired.map((v) => v.rule)).toEqual(['root-empty'])
  })

  it('adds the missing root type and keeps every other keyword', () => {
    const { result, reports } = repair({
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    })
    expect(result).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    })
    expect(reports[0]!.repaired.map((v) => v.rule)).toEqual(['root-type-missing'])
  })

  it('hoists `required: true` at every depth, drops `required: false`, and keeps existing names once', () => {
    const { result, reports } = repair({
      type: 'object',
      properties: {
        a: { type: 'string', required: true },
        b: { type: 'string', required: false },
        o: { type: 'object', properties: { x: { type: 'number', required: true } } },
      },
      required: ['a'],
    })
    expect(result).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'string' },
        o: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
      },
      required: ['a'],
    })
    expect(reports[0]!.repaired.map((v) => [v.pointer, v.rule])).toEqual([
      ['/properties/a/required', 'required-in-property'],
      ['/properties/b/required', 'required-in-property'],
      ['/properties/o/properties/x/required', 'required-in-property'],
    ])
  })

  it('keeps a `__proto__` property as data when wrapping a table', () => {
    const { result } = repair(JSON.parse('{"__proto__":{"type":"string"}}'))
    expect(JSON.stringify(result)).toBe('{"type":"object","properties":{"__proto__":{"type":"string"}}}')
  })
})

describe('what repair mode still refuses', () => {
  const refused: [string, unknown][] = [
    ['undefined parameters', undefined],
    ['JSON text', '{"type":"object"}'],
    ['a root type list', { type: ['object', 'null'], properties: {} }],
    ['a root anyOf with a branch that is no object schema', { anyOf: [{ type: 'object' }, true] }],
    ['a root allOf beside type object', { type: 'object', allOf: [{}, {}] }],
    [
      'an undeclared required name under additionalProperties: false',
      { type: 'object', properties: {}, required: ['a'], additionalProperties: false },
    ],
    ['type "json"', { type: 'object', properties: { a: { type: 'json' } } }],
    ['a function', { type: 'object', properties: { a: { type: 'string', default: () => '' } } }],
  ]
  for (const [name, parameters] of refused) {
    it(`throws JsonSchemaError for ${name}`, () => {
      let called = false
      const run = () =>
        enforceToolParameters(parameters, TOOL, { mode: 'repair', onRepair: () => (called = true) })
      expect(run).toThrow(JsonSchemaError)
      expect(called).toBe(false)
    })
  }

  it('throws for a repairable mistake mixed with one that is not, listing both', () => {
    const parameters = { cmd: { type: 'string', required: true }, args: { type: 'json' } }
    let error: unknown
    try {
      enforceToolParameters(parameters, TOOL, { mode: 'repair' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(JsonSchemaError)
    expect((error as JsonSchemaError).details.map((d) => d.rule)).toEqual([
      'bare-property-table',
      'required-in-property',
      'type-unknown',
    ])
  })

  it('throws in the default (throw) mode even for a repairable mistake', () => {
    expect(() => enforceToolParameters({}, TOOL)).toThrow(JsonSchemaError)
  })
})
