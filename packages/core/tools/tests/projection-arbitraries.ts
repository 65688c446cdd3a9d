import fc from 'fast-check'
import type { JsonObject, JsonValue } from '../src/index.ts'
import { objectOf } from './arbitraries.ts'

/** cordis_define-like: a discriminated `oneOf` of closed objects. */
export const DISCRIMINATED_ONE_OF: JsonObject = {
  oneOf: [
    {
      type: 'object',
      properties: { kind: { const: 'plugin' }, name: { type: 'string' } },
      required: ['kind', 'name'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { kind: { const: 'service' }, port: { type: 'integer' } },
      required: ['kind'],
      additionalProperties: false,
    },
  ],
}

/**
 * Tool schemas shaped like the ones MCP servers and plugins really emit (pydantic, zod-to-json-schema, OpenAPI
 * converters): nested objects, arrays and tuples, enums and consts, anyOf/oneOf (with and without a null branch),
 * `$defs`/`$ref` (also recursive), type lists with null, formats and bounds, metadata. Every one passes the root
 * contract, and `valueFor` generates values for it (mostly valid; the properties filter with the validator).
 */

const propertyNames = fc.constantFrom(
  'path',
  'query',
  'limit',
  'mode',
  'input',
  'items',
  'meta',
  'id',
  'a',
  'b',
)
const words = fc.constantFrom('The path.', 'Optional filter', 'Max results', 'JSON input', '查询', '')

/** Strings a model plausibly sends, JSON-looking ones included (a string slot must keep them verbatim). */
export const modelString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'null', 'true', '1', '"x"', '[]', '{}', '{"a":1}', '[1,"2"]', ' {"k": [null]}', '{'),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
)

const stringSchema: fc.Arbitrary<JsonObject> = fc
  .record(
    {
      description: words,
      minLength: fc.nat(3),
      maxLength: fc.integer({ min: 4, max: 40 }),
      format: fc.constantFrom('date-time', 'email', 'uri', 'uuid', 'date'),
      pattern: fc.constant('^[a-z]*$'),
      default: fc.constant('x'),
      examples: fc.constant<JsonValue>(['abc']),
    },
    { requiredKeys: [] },
  )
  .map((extra) => {
    const node: JsonObject = { type: 'string', ...extra }
    if (node.format !== undefined) {
      delete node.pattern
      delete node.minLength
      delete node.maxLength
    }
    return node
  })

const numberSchema: fc.Arbitrary<JsonObject> = fc
  .record(
    {
      type: fc.constantFrom('number', 'integer'),
      minimum: fc.integer({ min: -5, max: 0 }),
      maximum: fc.integer({ min: 1, max: 100 }),
      exclusiveMaximum: fc.constant(1000),
      multipleOf: fc.constant(1),
      description: words,
      default: fc.constant(1),
    },
    { requiredKeys: ['type'] },
  )
  .map((node) => node as JsonObject)

const enumSchema: fc.Arbitrary<JsonObject> = fc.constantFrom<JsonObject>(
  { type: 'string', enum: ['host', 'client'] },
  { enum: ['a', 'b', null] },
  { enum: [1, 2, 3] },
  { type: 'integer', enum: [1, 2, 3], description: 'Level' },
  { enum: ['x', 1, true] },
  { const: 'fixed' },
  { const: 3 },
  { type: 'string', const: 'v1', title: 'Version' },
)

const scalarSchema: fc.Arbitrary<JsonObject> = fc.oneof(
  { arbitrary: stringSchema, weight: 4 },
  { arbitrary: numberSchema, weight: 2 },
  { arbitrary: fc.constant<JsonObject>({ type: 'boolean', default: false }), weight: 1 },
  { arbitrary: enumSchema, weight: 2 },
  {
    arbitrary: fc.constantFrom<JsonObject>(
      { type: ['string', 'null'] },
      { type: ['integer', 'null'], minimum: 0 },
      { type: ['string', 'number'] },
      { type: ['string', 'array'], items: { type: 'string' } },
      { type: 'null' },
      { format: 'date-time' },
      { minimum: 0 },
    ),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom<JsonObject>({}, { description: 'Any JSON value' }, { title: 'Payload' }),
    weight: 1,
  },
)

/** Names every `$defs` entry may use; `Node` is recursive. */
export const DEFS: JsonObject = {
  Point: {
    type: 'object',
    properties: { x: { type: 'number' }, y: { type: 'number' } },
    required: ['x', 'y'],
    additionalProperties: false,
  },
  Tag: { type: 'string', enum: ['red', 'green'] },
  Node: {
    type: 'object',
    properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } },
    required: ['value'],
  },
  Any: { description: 'anything' },
}

const refSchema: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.constantFrom('Point', 'Tag', 'Node', 'Any').map((name) => ({ $ref: `#/$defs/${name}` })),
  fc
    .constantFrom('Point', 'Tag')
    .map((name) => ({ allOf: [{ $ref: `#/$defs/${name}` }], description: 'ref' })),
  fc.constant<JsonObject>({ $ref: '#/$defs/Tag', description: 'The tag' }),
)

function objectSchema(child: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      fc.uniqueArray(fc.tuple(propertyNames, child), { maxLength: 4, selector: ([name]) => name }),
      fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      fc.constantFrom<JsonValue | undefined>(undefined, undefined, false, true, { type: 'string' }, {}),
      fc.option(words, { nil: undefined }),
    )
    .map(([entries, requiredFlags, additional, description]) => {
      const node: JsonObject = { type: 'object', properties: objectOf(entries) as JsonObject }
      const required = entries.filter((_, i) => requiredFlags[i]).map(([name]) => name)
      if (required.length > 0) node.required = required
      if (additional !== undefined) node.additionalProperties = additional
      if (description !== undefined) node.description = description
      return node
    })
}

const openObject: fc.Arbitrary<JsonObject> = fc.constantFrom<JsonObject>(
  { type: 'object' },
  { type: 'object', description: 'Free-form options' },
  { type: 'object', additionalProperties: { type: 'string' } },
  { type: 'object', additionalProperties: { type: 'integer' }, description: 'counts' },
  { type: 'object', properties: {} },
)

function arraySchema(child: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc
      .record(
        {
          items: child,
          minItems: fc.nat(1),
          maxItems: fc.integer({ min: 2, max: 4 }),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: ['items'] },
      )
      .map((extra) => ({ type: 'array', ...extra }) as JsonObject),
    fc.constant<JsonObject>({ type: 'array' }),
    fc.constant<JsonObject>({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }),
    fc.constant<JsonObject>({ type: 'array', items: [{ type: 'string' }], additionalItems: false }),
    fc.constant<JsonObject>({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }] }),
  )
}

function unionSchema(child: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    fc.tuple(child, fc.boolean()).map(([branch, withDescription]) => ({
      anyOf: [branch, { type: 'null' }],
      ...(withDescription ? { description: 'Optional' } : {}),
    })),
    fc.array(child, { minLength: 2, maxLength: 3 }).map((branches) => ({ anyOf: branches })),
    fc.constant<JsonObject>({ anyOf: [{ type: 'string' }, { type: 'integer' }] }),
    fc.constant<JsonObject>({ anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] }),
    fc.constant<JsonObject>({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
    fc.constant<JsonObject>(DISCRIMINATED_ONE_OF),
    fc.constant<JsonObject>({ type: 'string', anyOf: [{ minLength: 1 }, { pattern: '^x' }] }),
  )
}

const schemaNode: fc.Arbitrary<JsonValue> = fc.letrec<{ node: JsonValue }>((tie) => {
  const child = tie('node')
  return {
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: scalarSchema, weight: 6 },
      { arbitrary: refSchema, weight: 1 },
      { arbitrary: openObject, weight: 1 },
      { arbitrary: objectSchema(child), weight: 2 },
      { arbitrary: arraySchema(child), weight: 2 },
      { arbitrary: unionSchema(child), weight: 2 },
    ),
  }
}).node

/** Root tool parameters as MCP servers emit them. */
export const mcpParameters: fc.Arbitrary<JsonObject> = fc
  .tuple(
    objectSchema(schemaNode),
    fc.boolean(),
    fc.constantFrom<string | undefined>(
      undefined,
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2020-12/schema',
    ),
    fc.option(fc.constantFrom('A tool', 'Input for the tool'), { nil: undefined }),
  )
  .map(([root, withDefs, dialect, title]) => {
    const usesRef = JSON.stringify(root).includes('$ref')
    const result: JsonObject = { ...root }
    if (usesRef || withDefs) result.$defs = DEFS
    // 2020-12 writes tuples with prefixItems; draft-07 with an items array
    const tuples = JSON.stringify(root).includes('"items":[')
    if (dialect !== undefined && !(tuples && dialect.includes('2020-12'))) result.$schema = dialect
    if (title !== undefined) result.title = title
    return result
  })

// ---------------------------------------------------------------------------------------------------------------
// Values for a schema

function resolve(root: JsonObject, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#/')) return undefined
  let at: JsonValue | undefined = root
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, segment))
      return undefined
    at = at[segment]
  }
  return at
}

const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  'date-time': ['2024-05-01T12:00:00Z', '1999-12-31T23:59:59+08:00'],
  date: ['2024-05-01'],
  email: ['a@example.com'],
  uri: ['https://example.com/x', 'file:///tmp/a'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
}

function typedValue(type: string, node: JsonObject, root: JsonObject, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
    case 'number': {
      const min = typeof node.minimum === 'number' ? node.minimum : -1000
      const max = typeof node.maximum === 'number' ? node.maximum : 1000
      return type === 'integer' || node.multipleOf === 1
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x))
    }
    case 'string': {
      if (typeof node.format === 'string' && FORMAT_SAMPLES[node.format] !== undefined)
        return fc.constantFrom(...FORMAT_SAMPLES[node.format]!)
      if (typeof node.pattern === 'string') return fc.stringMatching(/^[a-z]{0,8}$/)
      return modelString
    }
    case 'array': {
      const tuple = Array.isArray(node.items)
        ? node.items
        : Array.isArray(node.prefixItems)
          ? node.prefixItems
          : []
      const rest = Array.isArray(node.items) ? node.additionalItems : node.items
      const head = fc.tuple(...tuple.map((schema) => valueFor(schema, root, depth + 1)))
      const maxLength = Math.min(typeof node.maxItems === 'number' ? node.maxItems : 3, 3)
      const tail =
        rest === false || (tuple.length > 0 && rest === undefined && maxLength === 0)
          ? fc.constant([])
          : fc.array(valueFor(rest ?? true, root, depth + 1), { maxLength: depth > 3 ? 0 : maxLength })
      return fc.tuple(head, tail).map(([h, t]) => [...h, ...t])
    }
    case 'object': {
      const properties =
        typeof node.properties === 'object' && node.properties !== null && !Array.isArray(node.properties)
          ? node.properties
          : {}
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
      const entries = Object.entries(properties).map(([name, schema]) =>
        required.has(name) || depth > 4
          ? valueFor(schema, root, depth + 1).map((v) => [name, v] as const)
          : fc.option(
              valueFor(schema, root, depth + 1).map((v) => [name, v] as const),
              { nil: undefined },
            ),
      )
      const additional = node.additionalProperties
      const extra =
        additional === false || depth > 3
          ? fc.constant([])
          : fc.uniqueArray(
              fc.tuple(
                fc.constantFrom('x', 'y', 'opt', '__proto__'),
                valueFor(additional === undefined || additional === true ? {} : additional, root, depth + 1),
              ),
              { maxLength: 2, selector: ([key]) => key },
            )
      return fc
        .tuple(fc.tuple(...entries), extra)
        .map(([declared, more]) =>
          objectOf([
            ...declared.filter((entry): entry is readonly [string, unknown] => entry !== undefined),
            ...more.filter(([key]) => !Object.hasOwn(properties, key)),
          ]),
        )
    }
    default:
      return fc.constant(null)
  }
}

const anyJsonValue = fc.oneof(
  // Through JSON once: a model's arguments are JSON text, which cannot carry -0 (fast-check's doubles can).
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
  fc.constantFrom({ a: 1 }, [1, { b: 'c' }], 'text', '{"looks":"json"}'),
)

/** A value for `schema` (resolving `$ref`s against `root`): mostly valid; callers filter with the validator. */
export function valueFor(schema: JsonValue, root: JsonObject, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return anyJsonValue
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return fc.constant(null)
  if (typeof schema.$ref === 'string') {
    const target = resolve(root, schema.$ref)
    if (target === undefined || depth > 6) return fc.constant(null)
    const { $ref: _ref, ...siblings } = schema
    return valueFor(
      typeof target === 'object' && target !== null && !Array.isArray(target)
        ? { ...target, ...siblings }
        : target,
      root,
      depth + 1,
    )
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    const { allOf, ...rest } = schema
    const member = allOf[0]!
    return valueFor(
      typeof member === 'object' && member !== null && !Array.isArray(member)
        ? { ...rest, ...member }
        : member,
      root,
      depth,
    )
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  if (Object.hasOwn(schema, 'const')) return fc.constant(schema.const)
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword]
    if (Array.isArray(branches)) {
      const { [keyword]: _branches, ...rest } = schema
      return fc.oneof(
        ...branches.map((branch) =>
          valueFor(
            typeof branch === 'object' &&
              branch !== null &&
              !Array.isArray(branch) &&
              branch.type === undefined
              ? { ...rest, ...branch }
              : branch,
            root,
            depth + 1,
          ),
        ),
      )
    }
  }
  const types =
    typeof schema.type === 'string'
      ? [schema.type]
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : schema.format !== undefined
          ? ['string']
          : schema.minimum !== undefined
            ? ['number']
            : undefined
  if (types === undefined) return anyJsonValue
  return fc.oneof(...types.map((type) => typedValue(type, schema, root, depth)))
}

/** A schema with a value for it (not always valid). */
export const schemaAndValue: fc.Arbitrary<{ schema: JsonObject; value: unknown }> = mcpParameters.chain(
  (schema) => valueFor(schema, schema).map((value) => ({ schema, value })),
)
