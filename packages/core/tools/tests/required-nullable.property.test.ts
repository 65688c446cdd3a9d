import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject, PROFILE_IDS } from '../src/index.ts'
import { encodeForWire, wireValid } from './projection-encode.ts'

/**
 * Issue 23: a *required* field whose schema admits `null`, sent as `null`, is a value the model chose, never the
 * "not provided" filler that strict routes make the model write for an optional field. Every spelling of "admits
 * null", at the root, nested and inside union branches beside a branch where the same key is optional, on every route:
 * encoded as the wire asks, it reads back with the `null` in place.
 */
const TOOL = { tool: 'nullable', source: 'fast-check' }

const NULLABLE_SLOT = fc.constantFrom<JsonObject>(
  { type: ['string', 'null'] },
  { type: ['null', 'integer'] },
  { anyOf: [{ type: 'string' }, { type: 'null' }] },
  { oneOf: [{ type: 'integer' }, { type: 'null' }] },
  { enum: ['a', null] },
  { const: null },
  { type: 'null' },
  { $ref: '#/$defs/MaybeText' },
  { allOf: [{ $ref: '#/$defs/MaybeText' }], description: 'ref with a sibling' },
  {},
)
const OTHER_SLOT = fc.constantFrom<JsonObject>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' })
const DEFS = { MaybeText: { type: ['string', 'null'], maxLength: 20 } }

/** An object whose `keys` are required and nullable, beside optional keys of other types. */
const objectWith = (keys: readonly string[]) =>
  fc
    .tuple(
      fc.array(NULLABLE_SLOT, { minLength: keys.length, maxLength: keys.length }),
      fc.array(OTHER_SLOT, { maxLength: 2 }),
    )
    .map(([nullable, others]): JsonObject => {
      const properties: JsonObject = {}
      keys.forEach((key, index) => {
        properties[key] = nullable[index]!
      })
      others.forEach((slot, index) => {
        properties[`opt${index}`] = slot
      })
      return { type: 'object', properties, required: [...keys] }
    })

const schemaArbitrary = fc
  .tuple(objectWith(['a']), objectWith(['r']), fc.boolean())
  .map(([root, branch, nested]): JsonObject => {
    // Beside the branch that requires `r`, one where `r` is an optional string: there, a null would be a filler.
    const union = {
      anyOf: [
        branch,
        { type: 'object', properties: { r: { type: 'string' }, s: { type: 'string' } }, required: ['s'] },
      ],
    }
    const properties = {
      ...(root.properties as JsonObject),
      u: nested ? { type: 'object', properties: { deep: union }, required: ['deep'] } : union,
    }
    return { type: 'object', properties, required: ['a', 'u'], $defs: DEFS }
  })

function valueFor(schema: JsonObject): Record<string, unknown> {
  const u = (schema.properties as JsonObject).u as JsonObject
  const inner: Record<string, unknown> = { r: null }
  return { a: null, u: Array.isArray(u.anyOf) ? inner : { deep: inner } }
}

describe('a required field sent as null keeps its null', () => {
  it('on every route, at the root, nested, and in a union branch beside one where the key is optional', () => {
    let checked = 0
    fc.assert(
      fc.property(schemaArbitrary, fc.nat(), (schema, seed) => {
        const contract = createToolContract(schema, TOOL)
        const value = valueFor(schema)
        expect(contract.validate(value), JSON.stringify(schema)).toEqual([])
        for (const profile of PROFILE_IDS) {
          const { wire, decoder } = contract.projection(profile)
          const encoding = encodeForWire(value, decoder, wire, profile, seed)
          if (encoding.lossy) continue
          expect(
            wireValid(wire, profile, encoding.value),
            `${profile}: ${JSON.stringify(encoding.value)}`,
          ).toBe(true)
          checked++
          expect(
            contract.parseArguments(encoding.value, profile),
            `${profile}: ${JSON.stringify(wire)}`,
          ).toStrictEqual(value)
        }
      }),
      { numRuns: 200 },
    )
    expect(checked).toBeGreaterThan(200)
  })
})
