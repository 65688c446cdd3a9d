import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  checkToolParameters,
  createToolContract,
  type JsonObject,
  PROFILE_IDS,
  type ProfileId,
  projectParameters,
} from '../src/index.ts'
import { objectOf, plausibleParameters } from './arbitraries.ts'
import {
  DISCRIMINATED_ONE_OF,
  mcpParameters,
  modelString,
  schemaAndValue,
  valueFor,
} from './projection-arbitraries.ts'
import { encodeForWire, hasStringAtJsonText, wireValid } from './projection-encode.ts'

const TOOL = { tool: 'prop', source: 'fast-check' }
const profile = fc.constantFrom(...PROFILE_IDS)

/** Declared schemas that meet the root contract: realistic MCP shapes, and the broad generator filtered. */
const accepted: fc.Arbitrary<JsonObject> = fc.oneof(
  { arbitrary: mcpParameters, weight: 3 },
  {
    arbitrary: plausibleParameters.filter((schema) => checkToolParameters(schema).violations.length === 0),
    weight: 1,
  },
) as fc.Arbitrary<JsonObject>

describe('projection', () => {
  it('every generated MCP-like schema meets the root contract', () => {
    fc.assert(
      fc.property(mcpParameters, (schema) => {
        expect(checkToolParameters(schema).violations).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('is idempotent: projecting a wire schema again gives the very same object', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(accepted, profile, (schema, p) => {
        const first = projectParameters(schema, p)
        const again = projectParameters(first.wire, p)
        expect(again.wire, JSON.stringify({ wire: first.wire, again: again.wire })).toBe(first.wire)
        expect(again.decoder.kind).toBe('identity')
        expect(again.changes).toEqual([])
      }),
      { numRuns: 1_500 },
    )
  })

  it('is idempotent on a single-member allOf that shares keys with its parent (FC_SEED=159)', () => {
    const vocabulary = { 'https://json-schema.org/draft/2020-12/vocab/core': true }
    const members: JsonObject[] = [
      // The same value, or metadata: merged (the parent's `$vocabulary` used to be dropped, the member's sent).
      { type: 'string', allOf: [{ $vocabulary: vocabulary }], $vocabulary: vocabulary },
      { allOf: [{ dependentSchemas: {} }], dependentSchemas: {} },
      { type: 'number', $id: 'urn:a', allOf: [{ $id: 'urn:b', maximum: 3 }] },
      // Constrained differently: sent only while the parent's key is on the wire too, else spilled.
      { maximum: 5, allOf: [{ maximum: 3 }] },
      { type: 'string', contentSchema: { type: 'number' }, allOf: [{ contentSchema: { type: 'string' } }] },
    ]
    for (const a of members) {
      const schema: JsonObject = { type: 'object', properties: { a } }
      for (const p of PROFILE_IDS) {
        const first = projectParameters(schema, p)
        const again = projectParameters(first.wire, p)
        expect(again.wire, `${p}: ${JSON.stringify(first.wire)}`).toBe(first.wire)
        expect(again.changes).toEqual([])
      }
    }
    const wire = projectParameters({ type: 'object', properties: { a: members[0]! } }, 'deepseek').wire
    expect(wire.properties).toEqual({ a: { type: 'string' } })
  })

  it('is idempotent on a constraint anyOf beside a oneOf that is sent as anyOf', () => {
    // The oneOf's widened branch goes as an anyOf of JSON text; the constraint anyOf must not take that keyword.
    const schema: JsonObject = { type: 'object', properties: { p: { oneOf: [{}], anyOf: [{}] } } }
    const first = createToolContract(schema, TOOL).projection('deepseek')
    const again = projectParameters(first.wire, 'deepseek')
    expect(again.wire, JSON.stringify(first.wire)).toBe(first.wire)
    expect(again.decoder.kind).toBe('identity')
    expect(again.changes).toEqual([])
    expect(first.decoder.kind).toBe('object')
  })

  it('every wire schema meets its profile contract', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(accepted, profile, (schema, p) => {
        const { wire } = projectParameters(schema, p)
        expect(checkProfileContract(wire, p), JSON.stringify(wire)).toEqual([])
      }),
      { numRuns: 1_500 },
    )
  })

  it('a declared schema that already meets the contract comes back as the very same object', {
    timeout: 600_000,
  }, () => {
    let passing = 0
    fc.assert(
      fc.property(accepted, profile, (schema, p) => {
        if (checkProfileContract(schema, p).length > 0) return
        passing++
        const before = JSON.stringify(schema)
        const projection = projectParameters(schema, p)
        expect(projection.wire, `${p}: ${before} → ${JSON.stringify(projection.wire)}`).toBe(schema)
        expect(JSON.stringify(projection.wire)).toBe(before)
        expect(projection.decoder.kind).toBe('identity')
      }),
      { numRuns: 1_500 },
    )
    expect(passing).toBeGreaterThan(20)
  })

  it('projection never mutates the declared schema', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(accepted, (schema) => {
        const before = JSON.stringify(schema)
        for (const p of PROFILE_IDS) projectParameters(schema, p)
        expect(JSON.stringify(schema)).toBe(before)
      }),
      { numRuns: 300 },
    )
  })
})

describe('normalization', () => {
  it('is the identity on valid arguments (same reference), for every profile', { timeout: 600_000 }, () => {
    let checked = 0
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const contract = createToolContract(schema, TOOL)
        if (contract.validate(value).length > 0) return
        for (const p of PROFILE_IDS) {
          if (hasStringAtJsonText(value, contract.projection(p).decoder)) continue
          checked++
          expect(contract.parseArguments(value, p), p).toBe(value)
          expect(contract.normalizeArguments(value, p), p).toBe(value)
        }
      }),
      { numRuns: 1_000 },
    )
    expect(checked).toBeGreaterThan(1_000)
  })

  it('round trip: a valid value encoded as the wire asks reads back deep-equal', { timeout: 600_000 }, () => {
    let checked = 0
    let encoded = 0
    let ambiguous = 0
    fc.assert(
      fc.property(schemaAndValue, fc.nat(), ({ schema, value }, seed) => {
        const contract = createToolContract(schema, TOOL)
        if (contract.validate(value).length > 0) return
        for (const p of PROFILE_IDS) {
          const { wire, decoder } = contract.projection(p)
          const encoding = encodeForWire(value, decoder, wire, p, seed)
          if (encoding.lossy) continue
          checked++
          if (encoding.value !== value) encoded++
          expect(
            wireValid(wire, p, encoding.value),
            `${p}: ${JSON.stringify(encoding.value)} against ${JSON.stringify(wire)}`,
          ).toBe(true)
          const parsed = contract.parseArguments(encoding.value, p)
          // A string at a slot one union branch takes as it is and another as JSON text: when both readings are
          // valid ("false" the string, false the boolean) nobody can tell them apart; the reader picked a valid one.
          if (!isDeepStrictEqual(parsed, value) && hasStringAtJsonText(encoding.value, decoder)) {
            ambiguous++
            continue
          }
          expect(parsed, `${p}: ${JSON.stringify(encoding.value)}`).toStrictEqual(value)
        }
      }),
      { numRuns: 1_000 },
    )
    expect(checked).toBeGreaterThan(1_000)
    expect(encoded).toBeGreaterThan(100)
    expect(ambiguous).toBeLessThan(checked / 20)
  })

  /** The property's own check for one declared value, on every profile and a few encoder draws. */
  const expectRoundTrip = (schema: JsonObject, value: JsonObject): void => {
    const contract = createToolContract(schema, TOOL)
    expect(contract.validate(value)).toEqual([])
    for (const p of PROFILE_IDS) {
      const { wire, decoder } = contract.projection(p)
      for (const seed of [0, 1, 2, 3]) {
        const encoding = encodeForWire(value, decoder, wire, p, seed)
        if (encoding.lossy) continue
        expect(wireValid(wire, p, encoding.value), p).toBe(true)
        expect(
          contract.parseArguments(encoding.value, p),
          `${p}: ${JSON.stringify(encoding.value)}`,
        ).toStrictEqual(value)
      }
    }
  }

  it('a refused pattern in a constraint branch beside a sibling is not sent verbatim (FC_SEED=1079550521)', () => {
    const schema = {
      type: 'object',
      properties: { a: { oneOf: [{ pattern: '^\\p{L}+$' }], const: {} } },
    } as JsonObject
    for (const p of PROFILE_IDS)
      expect(checkProfileContract(projectParameters(schema, p).wire, p), p).toEqual([])
  })

  it('a string valid as it is beside a branch whose key is JSON text reaches the tool as stock hands it (issue 23)', () => {
    // DeepSeek sends the first branch's any-value `k` as JSON text; the second branch takes `k` as a plain string.
    const schema = {
      type: 'object',
      properties: {
        v: {
          anyOf: [
            { type: 'object', properties: { k: {} } },
            { type: 'object', properties: { k: { type: 'string' } }, required: ['k'] },
          ],
        },
      },
      required: ['v'],
    }
    const contract = createToolContract(schema, TOOL)
    for (const k of ['42', 'true', 'null', '{"a":1}', 'plain']) {
      const sent = { v: { k } }
      for (const p of PROFILE_IDS) {
        expect(contract.normalizeArguments(sent, p), `${p}: ${k}`).toBe(sent)
        expect(contract.parseArguments(sent, p), `${p}: ${k}`).toBe(sent)
      }
    }
    // A value only the JSON-text branch can hold (no `k`, which the other requires, and an extra key) is still read.
    const other = { v: { k: 7 } }
    for (const p of PROFILE_IDS) expect(contract.parseArguments(other, p)).toStrictEqual(other)
    // Both branches changed by the route (the second has a JSON-text key of its own): their readings of `k` merge,
    // and the string both can hold is still left as sent.
    const bothChanged = createToolContract(
      {
        ...schema,
        properties: {
          v: {
            anyOf: [
              schema.properties.v.anyOf[0]!,
              { ...schema.properties.v.anyOf[1]!, properties: { k: { type: 'string' }, m: {} } },
            ],
          },
        },
      },
      TOOL,
    )
    for (const p of PROFILE_IDS) {
      const read = bothChanged.normalizeArguments({ v: { k: '42', m: '[1]' } }, p) as { v: { k: unknown } }
      expect(read.v.k, p).toBe('42')
    }
  })

  it('round trip: an object only the branch that keeps it can hold is read as it is (FC_SEED=-492529667)', () => {
    const schema = {
      type: 'object',
      properties: {
        input: {
          anyOf: [
            { type: 'integer', minimum: -3, maximum: 37 },
            DISCRIMINATED_ONE_OF,
            {
              type: 'object',
              properties: { id: { type: 'boolean' }, input: {}, mode: { type: ['string', 'null'] } },
              required: ['id'],
              additionalProperties: {},
            },
          ],
        },
      },
      required: ['input'],
    }
    // The third branch sends its extra keys as JSON text, but it requires `id`: `name` is the first branch's string.
    for (const name of ['null', '1', 'true', '"q"', 'plain'])
      expectRoundTrip(schema, { input: { kind: 'plugin', name } })
    // A value the JSON-text branch does hold is still decoded.
    expectRoundTrip(schema, { input: { id: true, input: { a: [1] }, extra: null } })
  })

  it('round trip: a string beside a nested union of string and integer is not parsed as JSON text', () => {
    // Gemini sends `const: 3` as the text "3": `"{}"` is the nested union's string, not an object.
    const schema = {
      type: 'object',
      properties: { limit: { anyOf: [{ const: 3 }, { anyOf: [{ type: 'string' }, { type: 'integer' }] }] } },
      required: ['limit'],
    }
    // ("3" itself reads as 3 there: both readings are valid, the documented ambiguity.)
    for (const limit of ['{}', '[1]', 'x']) expectRoundTrip(schema, { limit })
    expectRoundTrip(schema, { limit: 3 })
  })

  it('round trip: JSON text of a value no branch holds stays the string it is (FC_SEED=1481028727, 1016)', () => {
    // openai-strict and Gemini send the tuple as JSON text: `"[false]"` parses to an array, but no [string, integer].
    const tuple = {
      type: 'object',
      properties: {
        meta: {
          anyOf: [
            { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] },
            { type: 'string', format: 'date' },
            { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
          ],
        },
      },
      required: ['meta'],
    }
    for (const meta of ['[false]', '[1,"2"]', '["a","b"]', '[1]']) expectRoundTrip(tuple, { meta })
    expectRoundTrip(tuple, { meta: ['a', 1] })
    // The array branch of a type list, an enum and a `$ref`'d closed object, each sent as JSON text somewhere.
    const mixed = {
      type: 'object',
      properties: {
        a: {
          anyOf: [
            { type: ['string', 'array'], items: { type: 'string' } },
            { enum: [1, 2, 3] },
            { allOf: [{ $ref: '#/$defs/Point' }], description: 'ref' },
          ],
        },
      },
      $defs: {
        Point: {
          type: 'object',
          properties: { x: { type: 'number' }, y: { type: 'number' } },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
    }
    for (const a of ['[1,"2"]', '5', '{"x":1}', '{"x":1,"y":2,"z":3}']) expectRoundTrip(mixed, { a })
    for (const a of [['p'], 2, { x: 1, y: 2 }]) expectRoundTrip(mixed, { a })
  })

  it('never changes a string slot, whatever JSON text it holds', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(
        mcpParameters,
        fc.oneof(
          modelString,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        fc.nat(),
        (root, text, seed) => {
          const properties = objectOf([
            ...Object.entries(root.properties as JsonObject),
            ['note', { type: 'string' }],
          ]) as JsonObject
          const schema = { ...root, properties }
          const contract = createToolContract(schema, TOOL)
          const value = fc.sample(valueFor(schema, schema), { seed, numRuns: 1 })[0]
          const args =
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? objectOf([...Object.entries(value).filter(([k]) => k !== 'note'), ['note', text]])
              : { note: text }
          for (const p of PROFILE_IDS) {
            const normalized = contract.normalizeArguments(args, p) as Record<string, unknown>
            expect(normalized.note, p).toBe(text)
            let parsed: unknown
            try {
              parsed = contract.parseArguments(args, p)
            } catch {
              continue
            }
            expect((parsed as Record<string, unknown>).note, p).toBe(text)
          }
        },
      ),
      { numRuns: 400 },
    )
  })
})

/** The encoder in the helpers is part of what the round trip relies on: pin it on known shapes too. */
describe('round-trip helpers', () => {
  const profiles: readonly ProfileId[] = PROFILE_IDS
  it('encodes a JSON-text slot as text the wire accepts', () => {
    const schema = { type: 'object', properties: { input: {} }, required: ['input'] }
    for (const p of profiles) {
      const { wire, decoder } = projectParameters(schema, p)
      const encoding = encodeForWire({ input: { a: [1] } }, decoder, wire, p, 1)
      if (p === 'dsh-subset') expect(encoding.value).toEqual({ input: { a: [1] } })
      else expect(encoding.value).toEqual({ input: '{"a":[1]}' })
      expect(wireValid(wire, p, encoding.value)).toBe(true)
    }
  })
})
