import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type JsonObject, judgeMcpSchema, judgeMcpToolList } from '../src/index.ts'

/**
 * The MCP boundary's one-meaning repairs (issue 16 item 1): a repaired schema accepts exactly the objects the declared
 * one does. Ajv (draft-07, `strict: false` so the declared schemas' own mistakes compile) is the judge of both.
 */
const ajv = new Ajv({ strict: false, allErrors: false })
const validates = (schema: unknown, value: unknown): boolean => ajv.validate(schema as object, value) === true

function repaired(schema: unknown): JsonObject {
  const verdict = judgeMcpSchema(schema, 'inputSchema', { policy: 'contract' })
  if (verdict.kind === 'rejected') throw new Error(JSON.stringify(verdict.violations))
  return verdict.schema as JsonObject
}

const KEYS = ['kind', 'id', 'text', 'n'] as const
const slotSchema = fc.constantFrom<JsonObject>(
  { type: 'string' },
  { type: 'number' },
  { type: 'integer', minimum: 0 },
  { const: 'x' },
  { const: 'y' },
  { enum: ['a', 'b'] },
  {},
  { type: 'string', minLength: 2 },
)
const branch = fc
  .record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(fc.constantFrom(...KEYS), slotSchema, { maxKeys: 3 }),
      required: fc.subarray([...KEYS], { maxLength: 2 }),
      additionalProperties: fc.constantFrom<JsonObject | boolean>(false, true, { type: 'string' }),
    },
    { requiredKeys: ['properties'] },
  )
  // A closed branch requiring a key it does not declare admits nothing; such a schema is refused (a test below).
  .filter(
    (b) =>
      b.additionalProperties !== false || (b.required ?? []).every((k) => Object.hasOwn(b.properties, k)),
  )
const value = fc.dictionary(
  fc.constantFrom(...KEYS, 'other'),
  fc.constantFrom<unknown>('x', 'y', 'a', 'ab', 1, -1, 2.5, null, true, {}),
  { maxKeys: 4 },
)

describe('a union root becomes one object root with the same meaning', () => {
  it('anyOf / oneOf of object schemas, with or without type "object": declared-valid ⇔ repaired-valid', () => {
    fc.assert(
      fc.property(
        fc.array(branch, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('anyOf', 'oneOf'),
        fc.boolean(),
        fc.array(value, { minLength: 1, maxLength: 8 }),
        (branches, keyword, typed, values) => {
          const declared: JsonObject = typed
            ? { type: 'object', [keyword]: branches }
            : { [keyword]: branches }
          const served = repaired(declared)
          expect(served.type).toBe('object')
          expect(served).not.toHaveProperty(keyword)
          for (const v of values) expect(validates(served, v)).toBe(validates(declared, v))
        },
      ),
    )
  })

  it('branches that are a $ref with sibling keywords keep both (allOf, JSON Schema 2020-12): declared-valid ⇔ repaired-valid', () => {
    // 2019-09 on, a `$ref` beside other keywords is one more assertion; the merged root must not read it narrower.
    const ajv2020 = new Ajv2020({ strict: false, allErrors: false })
    const validates2020 = (schema: unknown, v: unknown): boolean =>
      ajv2020.validate(schema as object, v) === true
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(branch, fc.option(branch, { nil: undefined }))
            // As for one branch: a closed side requiring a key it does not declare admits nothing, and is refused.
            .filter(([target, siblings]) => {
              const required = [...(target.required ?? []), ...(siblings?.required ?? [])]
              return [target, siblings].every(
                (side) =>
                  side?.additionalProperties !== false ||
                  required.every((k) => Object.hasOwn(side.properties, k)),
              )
            }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.constantFrom('anyOf', 'oneOf'),
        fc.array(value, { minLength: 1, maxLength: 8 }),
        (pairs, keyword, values) => {
          const $defs: JsonObject = {}
          const branches = pairs.map(([target, siblings], index) => {
            $defs[`B${index}`] = target
            const { type: _type, ...rest } = siblings ?? {}
            return { $ref: `#/$defs/B${index}`, ...rest }
          })
          const declared: JsonObject = {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            [keyword]: branches,
            $defs,
          }
          const served = repaired(declared)
          expect(served.type).toBe('object')
          for (const v of values)
            expect(validates2020(served, v), JSON.stringify({ served, v })).toBe(validates2020(declared, v))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('kaeawc/auto-mobile#973: { anyOf: [{id}, {text}] } (MCP SDK: expected "object" at inputSchema.type) is served', () => {
    const declared = {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } } },
        { type: 'object', properties: { text: { type: 'string' } } },
      ],
    }
    const [verdict] = judgeMcpToolList([{ name: 'tap', inputSchema: declared }], { profile: 'anthropic' })
    expect(verdict?.status).toBe('repaired')
    expect(verdict?.repairs[0]?.repaired[0]).toMatchObject({ pointer: '/anyOf', rule: 'root-union' })
    const wire = verdict?.projection?.input.wire as JsonObject
    // Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the top level".
    for (const combinator of ['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else'])
      expect(wire).not.toHaveProperty(combinator)
    expect(Object.keys(wire.properties as JsonObject)).toEqual(['id', 'text'])
  })

  it('a discriminated union (zod discriminatedUnion through zod-to-json-schema) keeps its discriminator on the wire', () => {
    const declared = {
      type: 'object',
      anyOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'file' }, path: { type: 'string' } },
          required: ['kind', 'path'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'url' }, url: { type: 'string' } },
          required: ['kind', 'url'],
          additionalProperties: false,
        },
      ],
      $schema: 'http://json-schema.org/draft-07/schema#',
    }
    const served = repaired(declared)
    expect(served).toMatchObject({
      type: 'object',
      properties: {
        kind: { anyOf: [{ const: 'file' }, { const: 'url' }] },
        path: { type: 'string' },
        url: { type: 'string' },
      },
      required: ['kind'],
      additionalProperties: false,
    })
    expect(validates(served, { kind: 'file', path: '/a' })).toBe(true)
    expect(validates(served, { kind: 'file', url: 'x' })).toBe(false)
  })

  it('branches through local $refs (pydantic emits anyOf of $defs) are read through the reference', () => {
    const declared = {
      $defs: {
        A: {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
          additionalProperties: false,
        },
      },
      anyOf: [
        { $ref: '#/$defs/A' },
        {
          type: 'object',
          properties: { b: { type: 'number' } },
          required: ['b'],
          additionalProperties: false,
        },
      ],
    }
    const served = repaired(declared)
    expect(Object.keys(served.properties as JsonObject)).toEqual(['a', 'b'])
    expect(validates(served, { a: 'x' })).toBe(true)
    expect(validates(served, { a: 'x', b: 1 })).toBe(false)
  })

  it('a branch with no object reading isolates the tool and the notice names the branch', () => {
    const verdict = judgeMcpSchema(
      {
        anyOf: [
          { type: 'object', properties: {} },
          { type: 'object', allOf: [{ properties: { a: {} } }] },
        ],
      },
      'inputSchema',
      { policy: 'contract' },
    )
    expect(verdict).toMatchObject({
      kind: 'rejected',
      violations: [{ pointer: '/anyOf/1', rule: 'root-union' }],
    })
    if (verdict.kind !== 'rejected') return
    expect(verdict.violations[0]?.message).toMatch(/branch 1: it has its own `allOf`/)
  })

  it('branches no object can match are kept (they still never match); none left isolates', () => {
    const served = repaired({
      anyOf: [{ type: 'string' }, { type: 'object', properties: { q: { type: 'string' } } }],
    })
    expect(validates(served, { q: 'x' })).toBe(true)
    expect(
      judgeMcpSchema({ anyOf: [{ type: 'string' }, false] }, 'inputSchema', { policy: 'contract' }),
    ).toMatchObject({
      kind: 'rejected',
      violations: [{ rule: 'root-union' }],
    })
  })
})

describe('required naming an undeclared key is declared with what additionalProperties admits', () => {
  it('declared-valid ⇔ repaired-valid for random objects', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...KEYS), slotSchema, { maxKeys: 2 }),
        fc.subarray([...KEYS], { minLength: 1 }),
        fc.constantFrom<JsonObject | boolean | undefined>(undefined, true, { type: 'number' }),
        fc.array(value, { minLength: 1, maxLength: 8 }),
        (properties, required, additional, values) => {
          const declared: JsonObject = { type: 'object', properties, required }
          if (additional !== undefined) declared.additionalProperties = additional
          const served = repaired(declared)
          for (const name of required) expect(Object.hasOwn(served.properties as JsonObject, name)).toBe(true)
          for (const v of values) expect(validates(served, v)).toBe(validates(declared, v))
        },
      ),
    )
  })

  it('iBUHub/AIStudioToAPI#154: browser_click required ["ref"] with properties {} (Gemini: "required[0]: property is not defined")', () => {
    const [verdict] = judgeMcpToolList(
      [{ name: 'browser_click', inputSchema: { type: 'object', properties: {}, required: ['ref'] } }],
      { profile: 'gemini' },
    )
    expect(verdict?.status).toBe('repaired')
    expect(verdict?.repairs[0]?.repaired[0]).toMatchObject({
      pointer: '/required/0',
      rule: 'required-undeclared',
    })
    const wire = verdict?.projection?.input.wire as JsonObject
    expect(wire.required).toEqual(['ref'])
    expect(Object.keys(wire.properties as JsonObject)).toEqual(['ref'])
  })

  it('under additionalProperties: false no call is valid: refused, not repaired', () => {
    const verdict = judgeMcpSchema(
      { type: 'object', properties: {}, required: ['ref'], additionalProperties: false },
      'inputSchema',
      { policy: 'contract' },
    )
    expect(verdict).toMatchObject({ kind: 'rejected', violations: [{ rule: 'required-undeclared' }] })
  })

  it('cline#11162 shape one level down ({ type: object, required: [port] }): the projection declares it on the wire', () => {
    const declared = { type: 'object', properties: { server: { type: 'object', required: ['port'] } } }
    const [verdict] = judgeMcpToolList([{ name: 'connect', inputSchema: declared }], { profile: 'gemini' })
    const wire = verdict?.projection?.input.wire as JsonObject
    const server = (wire.properties as JsonObject).server as JsonObject
    expect(server.required).toEqual(['port'])
    expect(Object.keys(server.properties as JsonObject)).toEqual(['port'])
  })
})
