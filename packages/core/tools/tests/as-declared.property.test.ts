import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkToolParameters, type JsonObject, PROFILE_IDS, profileRules } from '../src/index.ts'
import { acceptedAsDeclared } from '../src/projection/as-declared.ts'
import { projectFully } from '../src/projection/index.ts'
import { plausibleParameters } from './arbitraries.ts'
import { mcpParameters } from './projection-arbitraries.ts'

const LIMITS = { maxDepth: 256, nodeBudget: 10_000 }
const profile = fc.constantFrom(...PROFILE_IDS)

/** Property names, some of which a route's key rule refuses (Anthropic, Gemini). */
const propertyName = fc.constantFrom('query', 'limit', 'user_id', 'x.y', '1st', 'a-b', 'ünï', '$ref', 'type')

/** A value for one keyword, sometimes of the wrong kind, so both answers of the test come up. */
const keyword: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(fc.constant('description'), fc.oneof(fc.string(), fc.integer())),
  fc.tuple(fc.constant('title'), fc.string()),
  fc.tuple(fc.constant('default'), fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant({}))),
  fc.tuple(fc.constant('enum'), fc.oneof(fc.array(fc.string(), { minLength: 1 }), fc.array(fc.integer()))),
  fc.tuple(fc.constant('format'), fc.constantFrom('date-time', 'email', 'uri', 'int32')),
  fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minItems', 'maxItems'), fc.nat(20)),
  fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'multipleOf'), fc.integer({ min: 1 })),
  fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
  fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', '(?=x)y')),
  fc.tuple(fc.constant('examples'), fc.constant(['a'])),
  fc.tuple(fc.constant('$comment'), fc.string()),
  fc.tuple(fc.constant('x-vendor'), fc.string()),
)

const { node: nearSubsetNode } = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc
    .record({
      type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'array', 'object', 'null'),
      extras: fc.array(keyword, { maxLength: 3 }),
      items: fc.option(tie('node'), { nil: undefined }),
      properties: fc.option(fc.dictionary(propertyName, tie('node'), { maxKeys: 3 }), { nil: undefined }),
      required: fc.option(fc.array(propertyName, { maxLength: 2 }), { nil: undefined }),
      additional: fc.option(fc.oneof(fc.boolean(), fc.constant({ type: 'string' })), { nil: undefined }),
    })
    .map(({ type, extras, items, properties, required, additional }) => {
      const node: JsonObject = { type, ...(Object.fromEntries(extras) as JsonObject) }
      if (type === 'array' && items !== undefined) node.items = items
      if (type === 'object') {
        if (properties !== undefined) node.properties = properties
        if (required !== undefined) node.required = [...new Set(required)]
        if (additional !== undefined) node.additionalProperties = additional as JsonObject | boolean
      }
      return node
    }),
}))

/** Object roots of the vocabulary the test knows, and near it; only those that meet the root contract. */
const declared: fc.Arbitrary<JsonObject> = fc
  .oneof(
    {
      arbitrary: fc.record({
        type: fc.constant('object'),
        properties: fc.dictionary(propertyName, nearSubsetNode, { maxKeys: 4 }),
      }),
      weight: 4,
    },
    { arbitrary: mcpParameters, weight: 1 },
    { arbitrary: plausibleParameters as fc.Arbitrary<JsonObject>, weight: 1 },
  )
  .filter((schema) => checkToolParameters(schema).violations.length === 0)

describe('acceptedAsDeclared', () => {
  it('answers true only where the full projection sends the declared schema unchanged, for every profile', {
    timeout: 600_000,
  }, () => {
    let accepted = 0
    fc.assert(
      fc.property(declared, profile, (schema, id) => {
        if (!acceptedAsDeclared(schema, profileRules(id), LIMITS)) return
        accepted++
        const full = projectFully(schema, id, LIMITS.nodeBudget, LIMITS.maxDepth)
        expect(full.wire).toBe(schema)
        expect(full.decoder.kind).toBe('identity')
        expect(full.changes).toEqual([])
      }),
      { numRuns: 3000 },
    )
    // The implication proves nothing if the test never answers true.
    expect(accepted).toBeGreaterThan(300)
  })

  it('takes a typical tool schema as declared on the routes that send it unchanged', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Text to match.', minLength: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        state: { type: 'string', enum: ['open', 'closed'] },
        labels: { type: 'array', items: { type: 'string' }, maxItems: 20 },
      },
      required: ['query'],
      additionalProperties: false,
    }
    const taken = PROFILE_IDS.filter((id) => acceptedAsDeclared(schema, profileRules(id), LIMITS))
    expect(taken).toEqual(['deepseek', 'openai', 'anthropic', 'moonshot', 'llama-cpp', 'vllm'])
    for (const id of PROFILE_IDS) {
      const unchanged = projectFully(schema, id, LIMITS.nodeBudget, LIMITS.maxDepth).wire === schema
      if (taken.includes(id)) expect(unchanged).toBe(true)
    }
  })
})
