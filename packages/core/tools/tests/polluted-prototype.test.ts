import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import {
  checkToolParameters,
  createToolContract,
  type JsonObject,
  PROFILE_IDS,
  projectForRoute,
  projectParameters,
} from '../src/index.ts'
import { parsedJson, plausibleParameters } from './arbitraries.ts'

// The shape check iterates a snapshot with `for...in` and looks keyword shapes up by name; an enumerable key on
// `Object.prototype` (some dependency's mistake) must reach neither as if every node declared it.
const POLLUTED = ['type', 'properties', 'enum'] as const

afterEach(() => {
  for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key]
})

function pollute(): void {
  const proto = Object.prototype as Record<string, unknown>
  proto.type = 42
  proto.properties = 'not a map'
  proto.enum = []
}

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'where' },
    mode: { enum: ['a', 'b'] },
    options: { type: 'object', properties: { depth: { type: 'integer', minimum: 0 } } },
  },
  required: ['path'],
}

describe('an enumerable key on Object.prototype', () => {
  it('is not read as a keyword of any node, so a valid schema stays valid', () => {
    expect(checkToolParameters(schema).violations).toEqual([])
    pollute()
    expect(checkToolParameters(schema).violations).toEqual([])
  })

  it('still lets a real violation through to the report', () => {
    pollute()
    const broken = { type: 'object', properties: { path: { type: 'strnig' } } }
    expect(checkToolParameters(broken).violations.map((v) => [v.pointer, v.rule])).toEqual([
      ['/properties/path/type', 'type-unknown'],
    ])
  })
})

describe('a projection while Object.prototype carries enumerable keys', () => {
  it('sends every schema as declared, as stock DSH does, and says why', () => {
    const declared = checkToolParameters(schema).snapshot as JsonObject
    expect(projectParameters(declared, 'openai-strict').wire).not.toBe(declared)
    pollute()
    for (const profile of PROFILE_IDS) {
      const projection = projectParameters(declared, profile)
      expect(projection.wire).toBe(declared)
      expect(projection.decoder).toEqual({ kind: 'identity' })
      expect(projection.notProjected).toMatch(/Object\.prototype carries "type", "properties", "enum"/)
    }
  })

  it('serves an MCP tool as its server listed it, on every route', () => {
    const inputSchema = checkToolParameters(schema).snapshot as JsonObject
    pollute()
    for (const profile of PROFILE_IDS) {
      const outcome = projectForRoute({ name: 'read', inputSchema }, profile)
      expect(outcome.kind === 'projected' && outcome.projection.input.wire).toBe(inputSchema)
    }
  })

  it('projects again once the keys are gone', () => {
    const declared = checkToolParameters(schema).snapshot as JsonObject
    pollute()
    expect(projectParameters(declared, 'openai-strict').notProjected).toBeDefined()
    for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key]
    const projection = projectParameters(declared, 'openai-strict')
    expect(projection.notProjected).toBeUndefined()
    expect(projection.changes.length).toBeGreaterThan(0)
  })

  it('hands arguments to the tool as the model sent them', () => {
    const contract = createToolContract(
      { type: 'object', properties: { text: { description: 'free text' }, count: { type: 'integer' } } },
      { tool: 'note', source: undefined },
    )
    const args = { text: '{"looks":["like","json"]}', count: 3 }
    // Every node would seem to declare an object: a string slot without a type of its own would be parsed as one.
    ;(Object.prototype as Record<string, unknown>).type = 'object'
    for (const profile of PROFILE_IDS) expect(contract.normalizeArguments(args, profile)).toEqual(args)
  })

  it('sends any schema as declared and any arguments as sent, whatever keys were assigned there', () => {
    const keyword = fc.constantFrom(
      'type',
      'properties',
      'items',
      'anyOf',
      'enum',
      'const',
      'required',
      'nullable',
      '$ref',
    )
    fc.assert(
      fc.property(
        plausibleParameters,
        fc.dictionary(keyword, parsedJson, { minKeys: 1 }),
        parsedJson,
        (parameters, keys, args) => {
          const checked = checkToolParameters(parameters)
          if (checked.violations.length > 0) return
          const contract = createToolContract(parameters, { tool: 'probe', source: undefined })
          const proto = Object.prototype as Record<string, unknown>
          Object.assign(proto, keys)
          try {
            for (const profile of PROFILE_IDS) {
              expect(projectParameters(contract.declared, profile).wire).toBe(contract.declared)
              expect(contract.normalizeArguments(args, profile)).toBe(args)
            }
          } finally {
            for (const key of Object.keys(keys)) delete proto[key]
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
