import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../src/index.ts'
import { repairUnionRoot } from '../src/repair/union-root.ts'

/**
 * What the union-root repair shows the model and what it refuses (issue 23 item 7: mutants of `union-root.ts` the
 * suite let through). The `if`/`else` enforces the union exactly; `properties` and `required` are what the wire shows,
 * so they must be the union of what the branches admit at each key, and the keys every branch requires.
 */
function repaired(schema: JsonObject): Record<string, unknown> {
  const repair = repairUnionRoot(schema)
  if (repair.kind !== 'repaired') throw new Error(`not repaired: ${JSON.stringify(repair)}`)
  return repair.schema
}

function refusal(schema: unknown): { pointer: string; message: string; hint: string } {
  const repair = repairUnionRoot(schema)
  if (repair.kind !== 'refused') throw new Error(`not refused: ${JSON.stringify(repair)}`)
  return repair.violation
}

const SEARCH = {
  type: 'object',
  properties: { mode: { const: 'search' }, query: { type: 'string' } },
  required: ['mode', 'query'],
  additionalProperties: false,
}
const FETCH = {
  type: 'object',
  properties: { mode: { const: 'fetch' }, url: { type: 'string' } },
  required: ['mode', 'url'],
  additionalProperties: false,
}

describe('the wire of a repaired root union', () => {
  it('each key carries the union of what the branches admit there; required is what every branch requires', () => {
    const schema = repaired({ anyOf: [SEARCH, FETCH] })
    expect(schema.type).toBe('object')
    expect(schema.properties).toEqual({
      mode: { anyOf: [{ const: 'search' }, { const: 'fetch' }] },
      // A closed branch that does not declare `query` admits nothing there, so the other branch's slot is the union.
      query: { type: 'string' },
      url: { type: 'string' },
    })
    expect(schema.required).toEqual(['mode'])
    expect(schema.additionalProperties).toBe(false)
    expect(schema).toMatchObject({ if: SEARCH, else: FETCH })
  })

  it('an open branch admits anything at a key it does not declare; a branch with an additionalProperties schema admits that', () => {
    const open = repaired({ anyOf: [SEARCH, { type: 'object', properties: { url: { type: 'string' } } }] })
    expect(open.properties).toMatchObject({ mode: {}, query: {}, url: { type: 'string' } })
    expect(open).not.toHaveProperty('additionalProperties')
    expect(open).not.toHaveProperty('required')
    const typed = repaired({
      anyOf: [
        SEARCH,
        {
          type: 'object',
          properties: { url: { type: 'string' } },
          additionalProperties: { type: 'integer' },
        },
      ],
    })
    expect(typed.properties).toMatchObject({
      query: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      url: { type: 'string' },
    })
  })

  it('past four distinct additionalProperties schemas a key admits any value (wider, still implied by the union)', () => {
    const branches = [
      SEARCH,
      ...[1, 2, 3, 4, 5].map((n) => ({ type: 'object', additionalProperties: { maxLength: n } })),
    ]
    expect((repaired({ anyOf: branches }).properties as JsonObject).query).toEqual({})
    const four = [
      SEARCH,
      ...[1, 2, 3, 4].map((n) => ({ type: 'object', additionalProperties: { maxLength: n } })),
    ]
    expect((repaired({ anyOf: four }).properties as JsonObject).query).toMatchObject({
      anyOf: expect.any(Array),
    })
  })

  it('the root’s own properties and required stay as declared, beside the merged ones', () => {
    const schema = repaired({
      type: 'object',
      properties: { mode: { type: 'string', description: 'root' } },
      required: ['token'],
      anyOf: [SEARCH, FETCH],
    })
    expect((schema.properties as JsonObject).mode).toEqual({ type: 'string', description: 'root' })
    expect(schema.required).toEqual(['token', 'mode'])
  })

  it('a `$ref` branch with siblings is both: properties key by key, required and additionalProperties of both', () => {
    const schema = repaired({
      $defs: {
        base: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
          additionalProperties: false,
        },
      },
      anyOf: [
        {
          $ref: '#/$defs/base',
          properties: { id: { minLength: 2 }, tag: { type: 'string' } },
          required: ['tag'],
          additionalProperties: { type: 'string' },
        },
      ],
    })
    expect(schema.properties).toEqual({
      id: { allOf: [{ type: 'string' }, { minLength: 2 }] },
      tag: { type: 'string' },
    })
    expect(schema.required).toEqual(['id', 'tag'])
  })

  it('a `$ref` branch with only a description beside it is its target', () => {
    const schema = repaired({
      $defs: { base: SEARCH },
      anyOf: [{ $ref: '#/$defs/base', description: 'search' }, FETCH],
    })
    expect(Object.keys(schema.properties as JsonObject)).toEqual(['mode', 'query', 'url'])
    expect(schema.additionalProperties).toBe(false)
  })

  it('closed only when every branch is: a branch with patternProperties, or the root’s own additionalProperties, decides', () => {
    const patterned = { ...FETCH, patternProperties: { '^x-': { type: 'string' } } }
    expect(repaired({ anyOf: [SEARCH, patterned] })).not.toHaveProperty('additionalProperties')
    expect(repaired({ anyOf: [SEARCH, FETCH], additionalProperties: true }).additionalProperties).toBe(true)
  })

  it('the repair notice counts the alternatives and says how to declare the tool instead', () => {
    const repair = repairUnionRoot({ oneOf: [SEARCH, FETCH, false] })
    if (repair.kind !== 'repaired') throw new Error('not repaired')
    expect(repair.repaired.message).toMatch(/^a root `oneOf` of 3 object schemas: served as one object root/)
    expect(repair.repaired.hint).toMatch(/optional/)
  })

  it('a branch admitting no object adds nothing and is kept in the union; one alternative is that alternative', () => {
    const schema = repaired({ anyOf: [false, { type: 'string' }, FETCH] })
    expect(Object.keys(schema.properties as JsonObject)).toEqual(['mode', 'url'])
    expect(repaired({ oneOf: [SEARCH] })).toMatchObject({ if: SEARCH, else: false })
    const oneOf = repaired({ oneOf: [SEARCH, FETCH] })
    expect(oneOf).toMatchObject({ if: SEARCH, else: FETCH })
    // `then` read by key: an object literal with it reads as a thenable.
    expect(oneOf.then).toEqual({ not: FETCH })
    const three = repaired({ oneOf: [SEARCH, FETCH, { type: 'object' }] })
    expect(three.then).toEqual({ not: { anyOf: [FETCH, { type: 'object' }] } })
    expect(three.else).toEqual({ oneOf: [FETCH, { type: 'object' }] })
    expect(repairUnionRoot({ anyOf: [SEARCH] })).toMatchObject({
      repaired: { pointer: '/anyOf', rule: 'root-union' },
    })
  })
})

describe('a root union with no single object reading is refused, saying where and why', () => {
  it.each([
    [{ anyOf: [] }, '/anyOf', /lists no alternative/],
    [{ anyOf: [SEARCH], if: SEARCH }, '/if', /`if`/],
    [Object.defineProperty({ oneOf: [SEARCH] }, 'then', { value: {}, enumerable: true }), '/then', /`then`/],
    [{ anyOf: [SEARCH], else: {} }, '/else', /`else`/],
    [{ anyOf: [SEARCH], allOf: [] }, '/allOf', /`allOf`/],
    [{ anyOf: [SEARCH], not: {} }, '/not', /`not`/],
    [{ anyOf: [true] }, '/anyOf/0', /not an object schema/],
    [{ anyOf: [SEARCH, { anyOf: [SEARCH] }] }, '/anyOf/1', /own `anyOf`/],
    [{ anyOf: [SEARCH, { oneOf: [SEARCH] }] }, '/anyOf/1', /own `oneOf`/],
    [{ anyOf: [SEARCH, { allOf: [SEARCH] }] }, '/anyOf/1', /own `allOf`/],
    [{ anyOf: [SEARCH, { not: FETCH }] }, '/anyOf/1', /own `not`/],
    [{ anyOf: [SEARCH, { if: FETCH }] }, '/anyOf/1', /own `if`/],
    [{ anyOf: [{ $ref: '#/$defs/none' }] }, '/anyOf/0', /does not name an object schema/],
    [{ anyOf: [false, { type: 'string' }] }, '/anyOf', /no alternative admits an object/],
  ])('%j at %s', (schema, pointer, why) => {
    const violation = refusal(schema)
    expect(violation.pointer).toBe(pointer)
    expect(violation.message).toMatch(why)
    expect(violation.message).toMatch(/^a root `(anyOf|oneOf)` has no single object reading: /)
    expect(violation.hint.length).toBeGreaterThan(20)
  })

  it('a `$ref` chain longer than 32 hops', () => {
    const $defs: JsonObject = { d40: SEARCH }
    for (let n = 0; n < 40; n++) $defs[`d${n}`] = { $ref: `#/$defs/d${n + 1}` }
    expect(refusal({ $defs, anyOf: [{ $ref: '#/$defs/d0' }] }).message).toMatch(/longer than 32/)
    const short: JsonObject = { d3: SEARCH }
    for (let n = 0; n < 3; n++) short[`d${n}`] = { $ref: `#/$defs/d${n + 1}` }
    expect(repairUnionRoot({ $defs: short, anyOf: [{ $ref: '#/$defs/d0' }] }).kind).toBe('repaired')
  })

  it('no union, or a root typed other than object: nothing to repair', () => {
    expect(repairUnionRoot(SEARCH)).toEqual({ kind: 'none' })
    expect(repairUnionRoot({ type: 'array', anyOf: [SEARCH] })).toEqual({ kind: 'none' })
    expect(repairUnionRoot([SEARCH])).toEqual({ kind: 'none' })
    expect(repairUnionRoot({ type: 'object', anyOf: [SEARCH, FETCH] }).kind).toBe('repaired')
    expect(repairUnionRoot({ type: ['object', 'null'], anyOf: [SEARCH] }).kind).toBe('none')
  })

  it('a branch typed as several types including object is an object branch; without object it admits none', () => {
    const schema = repaired({
      anyOf: [
        { type: ['object', 'null'], properties: { a: { type: 'string' } } },
        { type: ['string', 'null'] },
      ],
    })
    expect(schema.properties).toEqual({ a: { type: 'string' } })
  })
})
