import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  createToolContract,
  type JsonObject,
  PROFILE_IDS,
  type ProfileId,
  projectParameters,
} from '../src/index.ts'
import { tally } from './work.ts'

const TOOL = { tool: 'refs', source: 'tests' }
const bytes = (value: unknown): number => JSON.stringify(value).length

/** pydantic's shape: every field a `$ref` (with a description beside it) to one of `kinds` shared definitions. */
function sharedDefinitions(fields: number, kinds: number, description = 'A field.'): JsonObject {
  const $defs: JsonObject = {}
  for (let k = 0; k < kinds; k++)
    $defs[`Kind${k}`] = {
      type: 'object',
      properties: {
        id: { type: 'string', description: `Identifier of kind ${k}` },
        size: { type: 'integer' },
      },
      required: ['id'],
    }
  const properties: JsonObject = {}
  for (let f = 0; f < fields; f++)
    properties[`field_${f}`] = { $ref: `#/$defs/Kind${f % kinds}`, description }
  return { type: 'object', properties, required: ['field_0'], $defs }
}

describe('the wire costs no more than stock', () => {
  it('routes that take $ref send a schema whose fields share definitions at its declared size', () => {
    const declared = sharedDefinitions(200, 4)
    const ratios = new Map<ProfileId, number>()
    for (const p of PROFILE_IDS) {
      const projection = projectParameters(declared, p)
      expect(projection.withheld, p).toBeUndefined()
      expect(checkProfileContract(projection.wire, p), p).toEqual([])
      ratios.set(p, bytes(projection.wire) / bytes(declared))
    }
    // As stock sends it: the very object on deepseek and openai; anthropic re-points each reference into a property.
    expect(projectParameters(declared, 'deepseek').wire).toBe(declared)
    expect(projectParameters(declared, 'openai').wire).toBe(declared)
    // pi-ai's Anthropic route sends only the root's properties: each of the 200 references goes through the
    // shortest-named property holding the definitions, `/properties/field_0` more, and nothing else changes.
    const anthropic = bytes(projectParameters(declared, 'anthropic').wire)
    expect(anthropic).toBe(bytes(declared) + 200 * '/properties/field_0'.length)
    for (const p of ['deepseek', 'openai', 'gemini'] as const)
      expect(ratios.get(p), p).toBeLessThanOrEqual(1.02)
    // Routes that fill optional fields put each of the 199 optional references beside a null branch (what #1149 needs),
    // not a copy of its definition.
    for (const p of ['codex', 'openai-strict'] as const) expect(ratios.get(p), p).toBeLessThan(1.7)
  })

  it('inlining stays within its budget: a route that takes no $ref withholds a tool that would grow past it', () => {
    // 2,000 fields × a 1 KB definition: about 90 KB declared, over 2 MB inlined.
    const long = 'x'.repeat(1_000)
    const declared = sharedDefinitions(2_000, 2)
    for (const definition of Object.values(declared.$defs as JsonObject))
      (definition as JsonObject).description = long
    const meter = tally()
    const projection = projectParameters(declared, 'dsh-subset', { meter })
    expect(projection.withheld).toMatch(/withheld on the dsh-subset route/)
    expect(projection.withheld).toMatch(new RegExp(`the ${bytes(declared)}-character schema`))
    expect(projection.wire).toBe(declared)
    // It stops as soon as the budget is crossed: far fewer nodes than a full inlining (2,000 × 4) would visit.
    expect(meter.of('projection-node')).toBeLessThan(2_000)
    // The routes that take references send it as declared.
    expect(projectParameters(declared, 'deepseek').wire).toBe(declared)
  })

  it('a 1 MB tool with many references never makes request building throw', () => {
    // A chain where each definition uses the next twice: inlined, 2^40 copies.
    const $defs: JsonObject = {}
    for (let i = 0; i < 40; i++)
      $defs[`L${i}`] =
        i === 39
          ? { type: 'string', description: 'y'.repeat(25_000) }
          : {
              type: 'object',
              properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } },
            }
    const declared: JsonObject = { type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, $defs }
    for (let i = 0; i < 40; i++) ($defs[`L${i}`] as JsonObject).title = 't'.repeat(25_000)
    expect(bytes(declared)).toBeGreaterThan(1_000_000)
    for (const p of PROFILE_IDS) {
      const projection = projectParameters(declared, p)
      // Every wire serializes; a route that must inline withholds the tool instead of building it.
      expect(() => JSON.stringify(projection.wire), p).not.toThrow()
      if (p === 'dsh-subset') expect(projection.withheld, p).toBeDefined()
      else expect(bytes(projection.wire) / bytes(declared), p).toBeLessThan(1.25)
    }
  })

  it('arguments for a kept $ref are read back with its definition, including a recursive one', () => {
    const declared: JsonObject = {
      type: 'object',
      $defs: {
        Node: {
          type: 'object',
          properties: { value: { description: 'any JSON' }, next: { $ref: '#/$defs/Node' } },
          required: ['value'],
        },
      },
      properties: { list: { $ref: '#/$defs/Node' } },
      required: ['list'],
    }
    const contract = createToolContract(declared, TOOL)
    // `value` is any JSON, sent as JSON text: the cycle cannot stay a `$ref`, so its recursive use is JSON text too.
    const wire = contract.projection('deepseek').wire
    const node = (wire.$defs as JsonObject).Node as JsonObject
    expect((node.properties as JsonObject).next).toMatchObject({ type: 'string' })
    const args = { list: { value: '{"a":1}', next: '{"value":2}' } }
    expect(contract.parseArguments(args, 'deepseek')).toEqual({
      list: { value: { a: 1 }, next: { value: 2 } },
    })
  })
})
