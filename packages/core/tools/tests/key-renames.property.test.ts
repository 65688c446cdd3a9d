import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ConflictingKeysError,
  createToolContract,
  type JsonObject,
  PROFILE_IDS,
  profileRules,
  ToolArgsError,
} from '../src/index.ts'

/**
 * Issue 23: a route that refuses some property keys (Gemini `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`, Anthropic
 * `^[a-zA-Z0-9_.-]{1,64}$`) gets them renamed on the wire, and the renames must be collision-free across union
 * branches and nesting: `k-1` in one branch and `k_1` in another used to become one wire key, so a value sent for
 * the second branch read back under the first branch's declared key.
 */
const TOOL = { tool: 'renames', source: 'fast-check' }
const RENAMING = PROFILE_IDS.filter((profile) => profileRules(profile).propertyKeys !== undefined)

/** Keys that collide once refused characters become `_`, and some the routes take as they are. */
const KEY = fc.constantFrom('k-1', 'k_1', 'k.1', 'k 1', 'a/b', 'a_b', 'plain', '1st', 'x')
const SLOT = fc.constantFrom<JsonObject>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' })
const SAMPLE: Record<string, unknown> = { string: 'v', integer: 7, boolean: true }

const branch = fc
  .uniqueArray(fc.tuple(KEY, SLOT), { minLength: 1, maxLength: 3, selector: ([key]) => key })
  .map((entries): JsonObject => {
    const properties: JsonObject = {}
    for (const [key, slot] of entries) properties[key] = slot
    // Every key required: a value names exactly one branch's keys, so which branch it was sent for is never in doubt.
    return { type: 'object', properties, required: entries.map(([key]) => key), additionalProperties: false }
  })

/** A root with a union of branches at `v`, and a nested object under `n` holding more of the same keys. */
const schemaArbitrary = fc
  .tuple(fc.array(branch, { minLength: 2, maxLength: 3 }), branch)
  .map(([branches, nested]) => ({
    schema: {
      type: 'object',
      properties: { v: { anyOf: branches }, n: nested },
      required: ['v', 'n'],
    } as JsonObject,
    branches,
    nested,
  }))

function sampleOf(object: JsonObject): Record<string, unknown> {
  const value: Record<string, unknown> = {}
  for (const [key, slot] of Object.entries(object.properties as JsonObject))
    value[key] = SAMPLE[(slot as { type: string }).type]
  return value
}

/**
 * `value` for the declared object `declared`, written as a model that reads only `wire` would write it: projection
 * keeps the order of `properties`, so the i-th declared key is sent under the i-th wire key. Written apart from the
 * decoder on purpose: it knows nothing of rename tables.
 */
function encode(
  value: Record<string, unknown>,
  declared: JsonObject,
  wire: JsonObject,
): Record<string, unknown> {
  const wireKeys = Object.keys(wire.properties as JsonObject)
  const encoded: Record<string, unknown> = {}
  Object.keys(declared.properties as JsonObject).forEach((key, index) => {
    encoded[wireKeys[index]!] = value[key]
  })
  return encoded
}

describe('key renames are one table per tool', () => {
  for (const profile of RENAMING)
    it(`${profile}: every wire key reads back to one declared key, whichever branch or depth it is sent at`, () => {
      fc.assert(
        fc.property(schemaArbitrary, fc.nat(), ({ schema, branches, nested }, pick) => {
          const contract = createToolContract(schema, TOOL)
          const wire = contract.projection(profile).wire as JsonObject & {
            properties: { v: { anyOf: JsonObject[] }; n: JsonObject }
          }
          const rule = profileRules(profile).propertyKeys!
          // One declared key per wire key across the whole wire schema, and every wire key one the route takes.
          const declaredOf = new Map<string, string>()
          const objects = [
            ...branches.map((b, i) => [b, wire.properties.v.anyOf[i]!] as const),
            [nested, wire.properties.n] as const,
          ]
          for (const [declared, sent] of objects) {
            const declaredKeys = Object.keys(declared.properties as JsonObject)
            Object.keys(sent.properties as JsonObject).forEach((wireKey, index) => {
              expect(rule.whole.test(wireKey), wireKey).toBe(true)
              const before = declaredOf.get(wireKey)
              expect(
                before === undefined || before === declaredKeys[index],
                `${wireKey}: ${before} and ${declaredKeys[index]}`,
              ).toBe(true)
              declaredOf.set(wireKey, declaredKeys[index]!)
            })
          }
          const chosen = pick % branches.length
          const value = { v: sampleOf(branches[chosen]!), n: sampleOf(nested) }
          const sent = {
            v: encode(value.v, branches[chosen]!, wire.properties.v.anyOf[chosen]!),
            n: encode(value.n, nested, wire.properties.n),
          }
          expect(contract.parseArguments(sent, profile)).toStrictEqual(value)
        }),
        { numRuns: 300 },
      )
    })

  it('gemini: `k-1` and `k_1` in two branches go out under two wire keys (the example of the issue)', () => {
    const schema = {
      type: 'object',
      properties: {
        v: {
          anyOf: [
            { type: 'object', properties: { 'k-1': { type: 'string' } }, required: ['k-1'] },
            { type: 'object', properties: { k_1: { type: 'number' } }, required: ['k_1'] },
          ],
        },
      },
      required: ['v'],
    }
    const contract = createToolContract(schema, TOOL)
    const wire = contract.projection('gemini').wire as { properties: { v: { anyOf: JsonObject[] } } }
    const [first, second] = wire.properties.v.anyOf.map((b) => Object.keys(b.properties as JsonObject)[0])
    expect(second).toBe('k_1')
    expect(first).not.toBe('k_1')
    expect(contract.parseArguments({ v: { k_1: 5 } }, 'gemini')).toStrictEqual({ v: { k_1: 5 } })
    expect(contract.parseArguments({ v: { [first!]: 'x' } }, 'gemini')).toStrictEqual({ v: { 'k-1': 'x' } })
  })
})

describe('a call carrying a renamed key and its declared key is refused', () => {
  it('names both keys and the object they are in', () => {
    const contract = createToolContract(
      { type: 'object', properties: { f: { type: 'object', properties: { 'a-b': { type: 'string' } } } } },
      TOOL,
    )
    const read = () => contract.normalizeArguments({ f: { a_b: 'x', 'a-b': 'y' } }, 'gemini')
    expect(read).toThrow(ConflictingKeysError)
    expect(read).toThrow(/"a_b".*"a-b"/)
    try {
      contract.parseArguments({ f: { a_b: 'x', 'a-b': 'y' } }, 'gemini')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ToolArgsError)
      expect((error as ToolArgsError).details[0]).toMatchObject({ pointer: '/f', keyword: 'renamed' })
      expect((error as ToolArgsError).message).toContain('send one of them')
    }
    // Either key alone reads back as the declared key.
    expect(contract.parseArguments({ f: { a_b: 'x' } }, 'gemini')).toStrictEqual({ f: { 'a-b': 'x' } })
  })
})
