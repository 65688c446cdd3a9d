import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  enforceToolParameters,
  isRepairable,
  type JsonObject,
  JsonSchemaError,
  type JsonValue,
  judgeMcpSchema,
} from '../src/index.ts'

/**
 * Issue 24 item 3: the plugin path in `mode: repair` applies the MCP boundary's one-meaning repairs, through the same
 * code. Each generated case is a schema as a plugin declared it (`declared`) beside what it means (`meaning`, plain
 * JSON Schema that ajv judges): the repaired schema must accept exactly the objects the meaning does. Where the
 * declared schema is itself JSON Schema ajv compiles (a root union, `{}`, a root `$ref`, an undeclared required name),
 * the meaning is the declared schema; where it is a mistake ajv cannot read (`required: null`, `properties: null`,
 * draft-03's `required: true`, a bare property table), the meaning is the schema it spells.
 */
const draft07 = new Ajv({ strict: false, allErrors: false })
const draft2020 = new Ajv2020({ strict: false, allErrors: false })
function judge(ajv: Ajv | Ajv2020, schema: JsonValue): ValidateFunction {
  return ajv.compile(schema as object)
}

const TOOL = { tool: 'plugin_tool', source: 'fast-check' }
const KEYS = ['kind', 'id', 'text', 'n'] as const
// A secret pasted into a schema's values: no message or hint may quote it.
const SECRET = 'sk-live-5ecret-token'

interface Pair {
  readonly declared: JsonObject
  readonly meaning: JsonObject
}

const leaf = fc
  .constantFrom<JsonObject>(
    { type: 'string' },
    { type: 'number' },
    { type: 'integer', minimum: 0 },
    { enum: ['a', SECRET] },
    { const: SECRET },
    { type: 'string', description: SECRET },
    { type: 'string', minLength: 2, default: SECRET },
    { type: 'boolean' },
    {},
  )
  .map((schema): Pair => ({ declared: structuredClone(schema), meaning: structuredClone(schema) }))

/** What `required` of one object node is spelled as in the declared schema. */
type RequiredSpelling = 'array' | 'null' | 'in-property'

function objectPair(
  entries: readonly (readonly [string, Pair])[],
  picks: readonly boolean[],
  spelling: RequiredSpelling,
  propertiesNull: boolean,
  additional: JsonValue | undefined,
): Pair {
  const required = entries.flatMap(([name], index) => (picks[index] ? [name] : []))
  const meaning: JsonObject = { type: 'object', properties: {} }
  const declared: JsonObject = { type: 'object', properties: {} }
  for (const [name, pair] of entries) {
    const slot = structuredClone(pair)
    if (spelling === 'in-property' && slot.declared.type === 'object') {
      // draft-03's `required` of a property is a boolean: a nested object then lists none of its own.
      delete slot.meaning.required
      delete slot.declared.required
      const nested = slot.declared.properties
      if (typeof nested === 'object' && nested !== null && !Array.isArray(nested))
        for (const property of Object.values(nested))
          if (typeof property === 'object' && property !== null && !Array.isArray(property))
            delete property.required
    }
    if (spelling === 'in-property') slot.declared.required = required.includes(name)
    ;(meaning.properties as JsonObject)[name] = slot.meaning
    ;(declared.properties as JsonObject)[name] = slot.declared
  }
  if (entries.length === 0 && propertiesNull) declared.properties = null
  if (required.length > 0) meaning.required = required
  if (spelling === 'array' && required.length > 0) declared.required = required
  if (spelling === 'null') declared.required = required.length > 0 ? required : null
  if (additional !== undefined) {
    meaning.additionalProperties = additional
    declared.additionalProperties = additional
  }
  return { declared, meaning }
}

const { node } = fc.letrec<{ node: Pair; slot: Pair }>((tie) => ({
  slot: fc.oneof({ maxDepth: 2, depthIdentifier: 'schema' }, leaf, tie('node')),
  node: fc
    .record({
      entries: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie('slot')), {
        maxLength: 3,
        selector: ([name]) => name,
      }),
      picks: fc.array(fc.boolean(), { minLength: KEYS.length, maxLength: KEYS.length }),
      spelling: fc.constantFrom<RequiredSpelling>('array', 'null', 'in-property'),
      propertiesNull: fc.boolean(),
      additional: fc.constantFrom<JsonValue | undefined>(undefined, undefined, false, true, {
        type: 'string',
      }),
    })
    .map(({ entries, picks, spelling, propertiesNull, additional }) =>
      objectPair(entries, picks, spelling, propertiesNull, additional),
    ),
}))

// What the root contract reads as a property schema in a bare table: an object using a keyword it knows.
const hasKeyword = (schema: JsonValue): boolean =>
  typeof schema === 'object' &&
  schema !== null &&
  ['type', 'enum', 'description', 'minLength'].some((k) => Object.hasOwn(schema, k))

/** The root mistakes, each built around an object node (whose own nested mistakes come along). */
const rootCase = fc.oneof(
  node.map((p) => ({ name: 'typed root', ...p })),
  node
    .filter(
      (p) =>
        Object.keys(p.declared).every((k) => k === 'type' || k === 'properties') &&
        p.declared.properties !== null &&
        Object.values(p.declared.properties as JsonObject).every(hasKeyword) &&
        Object.keys(p.declared.properties as JsonObject).length > 0,
    )
    .map((p) => ({
      name: 'bare property table',
      declared: p.declared.properties as JsonObject,
      meaning: p.meaning,
    })),
  node
    .filter((p) => p.declared.properties !== null)
    .map(({ declared: { type: _type, ...untyped }, meaning }) => ({
      name: 'missing root type',
      declared: untyped,
      meaning,
    })),
  node.map((p) => ({
    name: 'root $ref',
    declared: { $ref: '#/definitions/Args', definitions: { Args: p.declared } } as JsonObject,
    meaning: p.meaning,
  })),
  fc
    .tuple(fc.array(node, { minLength: 1, maxLength: 3 }), fc.constantFrom('anyOf', 'oneOf'), fc.boolean())
    .map(([branches, keyword, typed]) => {
      const declared: JsonObject = { [keyword]: branches.map((b) => b.declared) }
      const meaning: JsonObject = { [keyword]: branches.map((b) => b.meaning) }
      if (typed) declared.type = meaning.type = 'object'
      return { name: `root ${keyword}`, declared, meaning }
    }),
  fc
    .constantFrom<JsonObject>(
      {},
      { $schema: 'http://json-schema.org/draft-07/schema#' },
      {
        title: 'T',
        description: SECRET,
        $comment: SECRET,
      },
    )
    .map((declared) => ({ name: 'empty root', declared: structuredClone(declared), meaning: {} })),
  node
    .filter((p) => p.declared.additionalProperties !== false && p.declared.properties !== null)
    .map((p) => {
      const required = [...((p.meaning.required as string[] | undefined) ?? []), 'other']
      const declared: JsonObject = {
        ...p.declared,
        required: Array.isArray(p.declared.required) ? [...p.declared.required, 'other'] : ['other'],
      }
      return { name: 'undeclared required name', declared, meaning: { ...p.meaning, required } }
    }),
)

const { value } = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'value' },
    fc.constantFrom<unknown>('x', 'ab', 'a', SECRET, 1, -1, 2.5, null, true, []),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom(...KEYS, 'other'), tie('value'), { maxKeys: 4 }),
}))
const objects = fc.array(
  value.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  {
    minLength: 1,
    maxLength: 8,
  },
)

function repaired(declared: JsonObject): JsonObject {
  return enforceToolParameters(declared, TOOL, { mode: 'repair' }) as JsonObject
}

describe('the plugin path in mode: repair keeps what the declared schema means', () => {
  it('every one-meaning mistake, at the root and nested: meaning-valid ⇔ repaired-valid (ajv draft-07)', () => {
    fc.assert(
      fc.property(rootCase, objects, ({ name, declared, meaning }, values) => {
        const served = repaired(structuredClone(declared))
        expect(served.type, name).toBe('object')
        const [want, got] = [judge(draft07, meaning), judge(draft07, served)]
        for (const v of values) expect(got(v), `${name}: ${JSON.stringify({ served, v })}`).toBe(want(v))
      }),
      { numRuns: 400 },
    )
  })

  it('a union branch that is a $ref with sibling keywords keeps both (ajv 2020-12): meaning-valid ⇔ repaired-valid', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(node, fc.option(node, { nil: undefined })), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('anyOf', 'oneOf'),
        objects,
        (pairs, keyword, values) => {
          const side = (pair: Pair | undefined, which: keyof Pair): JsonObject => {
            const { type: _type, ...rest } = pair?.[which] ?? {}
            return rest
          }
          const build = (which: keyof Pair): JsonObject => ({
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            [keyword]: pairs.map(([, siblings], index) => ({
              $ref: `#/$defs/B${index}`,
              ...side(siblings, which),
            })),
            $defs: Object.fromEntries(pairs.map(([target], index) => [`B${index}`, target[which]])),
          })
          const meaning = build('meaning')
          // As at the MCP boundary: a closed side requiring a key the other side declares admits nothing there.
          const admitsNothing = pairs.some(([target, siblings]) => {
            const required = [
              ...((target.meaning.required as string[] | undefined) ?? []),
              ...((siblings?.meaning.required as string[] | undefined) ?? []),
            ]
            return [target, siblings].some(
              (s) =>
                s?.meaning.additionalProperties === false &&
                !required.every((k) => Object.hasOwn(s.meaning.properties as JsonObject, k)),
            )
          })
          fc.pre(!admitsNothing)
          const served = repaired(build('declared'))
          const [want, got] = [judge(draft2020, meaning), judge(draft2020, served)]
          for (const v of values) expect(got(v), JSON.stringify({ served, v })).toBe(want(v))
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('one repairer: both paths serve the same schema', () => {
  it('the MCP boundary (contract policy) and the plugin path in mode: repair give the same JSON', () => {
    fc.assert(
      fc.property(rootCase, ({ declared }) => {
        const verdict = judgeMcpSchema(structuredClone(declared), 'inputSchema', { policy: 'contract' })
        if (verdict.kind === 'rejected') throw new Error(JSON.stringify(verdict.violations))
        expect(JSON.stringify(verdict.schema)).toBe(JSON.stringify(repaired(structuredClone(declared))))
      }),
      { numRuns: 300 },
    )
  })
})

describe('refuse mode offers the repair', () => {
  it('every violation of a repairable schema says what mode: repair would serve, and quotes no schema value', () => {
    fc.assert(
      fc.property(rootCase, ({ name, declared }) => {
        let error: unknown
        try {
          enforceToolParameters(structuredClone(declared), TOOL)
        } catch (caught) {
          error = caught
        }
        // A declared schema that needs no repair is served as it is.
        if (error === undefined) return
        expect(error, name).toBeInstanceOf(JsonSchemaError)
        const refusal = error as JsonSchemaError
        expect(isRepairable(refusal.details), name).toBe(true)
        for (const violation of refusal.details) {
          expect(violation.repairable).toBe(true)
          expect(violation.hint).toMatch(
            /; or set `mode: repair` in the dsh-harden row to serve the tool (as|with|without) /,
          )
        }
        expect(refusal.message).not.toContain(SECRET)
      }),
      { numRuns: 300 },
    )
  })
})
