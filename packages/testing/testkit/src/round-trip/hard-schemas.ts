import fc from 'fast-check'
import type { JsonObject } from './tools.ts'

/**
 * Declared schemas from the families where reading arguments back can go wrong: unions whose branches share keys,
 * `const`/`enum` discriminators, overlapping types, nested unions, required nullable fields, string-accepting
 * branches beside slots a route sends as JSON text (`{}`, open objects on strict routes), and keys some routes refuse,
 * in different branches (`k-1`, `k_1`, `k.1` collide once refused characters become `_`).
 */
const KEYS = ['k-1', 'k_1', 'k.1', 'a/b', 'kind', 'value', 'n', 'x'] as const
const key = fc.constantFrom(...KEYS)

const leaf: fc.Arbitrary<JsonObject> = fc.constantFrom<JsonObject>(
  { type: 'string' },
  { type: 'integer' },
  { type: 'number' },
  { type: 'boolean' },
  {},
  { description: 'any JSON value' },
  { type: ['string', 'null'] },
  { type: ['number', 'string'] },
  { type: ['integer', 'null'] },
  { enum: [1, '1', null] },
  { enum: ['a', 'b'] },
  { const: 'x' },
  { const: 5 },
  { type: 'string', enum: ['red', 'green'] },
  { type: 'object' },
  { type: 'array' },
  { type: 'number', minimum: 0, maximum: 10 },
)

function objectWith(
  entries: readonly (readonly [string, JsonObject])[],
  required: readonly boolean[],
): JsonObject {
  const properties: JsonObject = {}
  for (const [name, schema] of entries) if (!Object.hasOwn(properties, name)) properties[name] = schema
  const names = Object.keys(properties)
  return { type: 'object', properties, required: names.filter((_, index) => required[index] === true) }
}

const { slot } = fc.letrec<{ slot: JsonObject; object: JsonObject; union: JsonObject; tagged: JsonObject }>(
  (tie) => ({
    slot: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: leaf, weight: 4 },
      { arbitrary: tie('object'), weight: 1 },
      { arbitrary: tie('union'), weight: 2 },
      { arbitrary: tie('tagged'), weight: 1 },
      { arbitrary: tie('slot').map((items): JsonObject => ({ type: 'array', items })), weight: 1 },
    ),
    object: fc
      .tuple(
        fc.array(fc.tuple(key, tie('slot')), { minLength: 1, maxLength: 3 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.constantFrom<JsonObject>(
          {},
          { additionalProperties: false },
          { additionalProperties: { type: 'string' } },
        ),
      )
      .map(([entries, required, closed]) => ({ ...objectWith(entries, required), ...closed })),
    union: fc
      .tuple(fc.constantFrom('anyOf', 'oneOf'), fc.array(tie('slot'), { minLength: 2, maxLength: 3 }))
      .map(([keyword, branches]): JsonObject => ({ [keyword]: branches })),
    // Object branches told apart by a `const` or `enum` key, sharing their other keys.
    tagged: fc
      .tuple(
        fc.constantFrom('anyOf', 'oneOf'),
        fc.boolean(),
        fc.array(fc.tuple(key, tie('slot')), { minLength: 0, maxLength: 2 }),
        fc.array(fc.tuple(key, tie('slot')), { minLength: 0, maxLength: 2 }),
      )
      .map(([keyword, useEnum, first, second]): JsonObject => {
        const tag = (name: string): JsonObject => (useEnum ? { enum: [name] } : { const: name })
        const branch = (name: string, entries: readonly (readonly [string, JsonObject])[]): JsonObject => {
          const object = objectWith(
            [['kind', tag(name)], ...entries.filter(([k]) => k !== 'kind')],
            [true, false, true],
          )
          return object
        }
        return { [keyword]: [branch('a', first), branch('b', second)] }
      }),
  }),
)

/** A tool's declared parameters: an object root whose properties come from the hard families. */
export const hardSchema: fc.Arbitrary<JsonObject> = fc
  .tuple(
    fc.array(fc.tuple(key, slot), { minLength: 1, maxLength: 4 }),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  )
  .map(([entries, required]) => objectWith(entries, required))
