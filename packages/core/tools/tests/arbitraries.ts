import fc from 'fast-check'

/** Builds an object from entries with own-property semantics, so a `__proto__` entry stays data. */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  }
  return object
}

/** Keys that break naive code (prototype names) mixed with keywords and ordinary names. */
export const trickyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'type',
    'properties',
    'required',
    '$ref',
  ),
  fc.string({ maxLength: 6 }),
)

/** fc.anything with every option on, including `__proto__` keys. */
export const anyValue: fc.Arbitrary<unknown> = fc.anything({
  key: trickyKey,
  withBoxedValues: true,
  withSet: true,
  withMap: true,
  withObjectString: true,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withUnicodeString: true,
})

/** JSON text parsed back: `__proto__` keys become own data properties, as they do in real MCP payloads. */
export const parsedJson: fc.Arbitrary<unknown> = fc
  .tuple(trickyKey, fc.jsonValue({ maxDepth: 4 }))
  .map(([key, value]) =>
    JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)},"__proto__":{"type":"string"}}`),
  )

const DIALECTS = [
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft/2019-09/schema',
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2020-12/schema#',
] as const

const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const

/** Mostly valid values, sometimes a plausible mistake: so that both verdicts occur often. */
function mostly<T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>): fc.Arbitrary<T | U> {
  return fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 })
}

const finite = fc.double({ noNaN: true, noDefaultInfinity: true })
const shortText = fc.oneof(fc.constantFrom('', 'id', 'a b', 'x/y', 'ä'), fc.string({ maxLength: 8 }))
const names = fc.constantFrom('a', 'b', 'c', 'path', 'A')
const jsonish = fc.jsonValue({ maxDepth: 2 })
const anchors = mostly(
  fc.constantFrom('a', 'Item', 'meta', 'a.b', 'a-1'),
  fc.constantFrom('_x', 'a:b', '', '1x', 'a b'),
)
/** Keys that no meta-schema constrains, including the ones that trip naive object code. */
const junkKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'x-vendor'),
  fc.string({ maxLength: 6 }).map((k) => `x-${k}`),
)
const refs = fc.constantFrom(
  '#',
  '#/$defs/A',
  '#/$defs/B',
  '#/definitions/A',
  '#/properties/a',
  '#/properties/a/items',
  '#/$defs/a%20b',
  '#a',
  '#Item',
  '#meta',
  'http://example.com/s.json',
  'other.json#/x',
  '',
)
const ids = fc.constantFrom('http://example.com/s', 'http://example.com/s#', 'urn:x', 'x.json', '')

/**
 * Plausible JSON Schemas: the whole vocabulary that the draft-07/2019-09/2020-12 meta-schemas constrain, nested
 * arbitrarily, each keyword with a mostly-valid value, plus junk keys and junk values.
 */
export function schemaArbitraries() {
  return fc.letrec((tie) => {
    const schema = (): fc.Arbitrary<unknown> => tie('schema')
    const schemaList = (min: number) => fc.array(schema(), { minLength: min, maxLength: 3 })
    const schemaMap = (keys: fc.Arbitrary<string>) =>
      fc.uniqueArray(fc.tuple(keys, schema()), { maxLength: 3, selector: ([key]) => key }).map(objectOf)
    const stringList = fc.array(names, { maxLength: 3 })
    const keyword: Record<string, fc.Arbitrary<unknown>> = {
      type: mostly(
        fc.oneof(
          fc.constantFrom(...TYPES),
          fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
        ),
        fc.constantFrom('json', 'any', 'int', [], ['string', 'string'], 5),
      ),
      enum: mostly(fc.array(jsonish, { minLength: 1, maxLength: 3 }), fc.constantFrom([], 'a', {})),
      const: jsonish,
      default: jsonish,
      examples: mostly(fc.array(jsonish, { maxLength: 2 }), fc.constantFrom({}, 'x')),
      pattern: mostly(
        fc.constantFrom('^[a-z]+$', '\\d{3}', '.*', '^\\p{L}+$'),
        fc.oneof(fc.constantFrom('(', '[a-'), fc.string()),
      ),
      format: mostly(fc.constantFrom('uri', 'date-time', 'email', 'whatever'), fc.constant(5)),
      title: mostly(shortText, fc.constant(1)),
      description: mostly(shortText, fc.constant(null)),
      $comment: mostly(shortText, fc.constant(false)),
      contentMediaType: mostly(fc.constant('application/json'), fc.constant(1)),
      contentEncoding: mostly(fc.constant('base64'), fc.constant([])),
      minimum: mostly(finite, fc.constantFrom('1', true)),
      maximum: mostly(finite, fc.constantFrom('1', null)),
      exclusiveMinimum: mostly(finite, fc.constant(true)),
      exclusiveMaximum: mostly(finite, fc.constant(false)),
      multipleOf: mostly(fc.double({ min: 0.001, max: 100, noNaN: true }), fc.constantFrom(0, -2, '2')),
      minLength: mostly(fc.nat(100), fc.constantFrom(-1, 1.5, '1')),
      maxLength: mostly(fc.nat(100), fc.constantFrom(-1, 2.5)),
      minItems: mostly(fc.nat(10), fc.constant(-3)),
      maxItems: mostly(fc.nat(10), fc.constant(0.5)),
      minProperties: mostly(fc.nat(10), fc.constant(-1)),
      maxProperties: mostly(fc.nat(10), fc.constant('x')),
      minContains: mostly(fc.nat(10), fc.constant(-1)),
      maxContains: mostly(fc.nat(10), fc.constant(1.25)),
      uniqueItems: mostly(fc.boolean(), fc.constant('yes')),
      readOnly: mostly(fc.boolean(), fc.constant(1)),
      writeOnly: mostly(fc.boolean(), fc.constant(0)),
      deprecated: mostly(fc.boolean(), fc.constant('no')),
      required: mostly(
        fc.oneof(
          { arbitrary: fc.uniqueArray(names, { maxLength: 3 }), weight: 4 },
          { arbitrary: fc.boolean(), weight: 1 },
        ),
        fc.constantFrom(['a', 'a'], 'a', [1], {}),
      ),
      items: mostly(fc.oneof(schema(), schemaList(1)), fc.constantFrom('string', [], 3)),
      prefixItems: mostly(schemaList(1), fc.constantFrom([], {})),
      additionalItems: mostly(schema(), fc.constant('no')),
      contains: mostly(schema(), fc.constant(1)),
      propertyNames: mostly(schema(), fc.constant(null)),
      additionalProperties: mostly(schema(), fc.constant('false')),
      unevaluatedProperties: mostly(schema(), fc.constant(0)),
      unevaluatedItems: mostly(schema(), fc.constant([])),
      contentSchema: mostly(schema(), fc.constant('x')),
      not: mostly(schema(), fc.constant([])),
      if: mostly(schema(), fc.constant('x')),
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword, not a thenable
      then: mostly(schema(), fc.constant(1)),
      else: mostly(schema(), fc.constant(null)),
      allOf: mostly(schemaList(1), fc.constantFrom([], {})),
      anyOf: mostly(schemaList(1), fc.constantFrom([], true)),
      oneOf: mostly(schemaList(1), fc.constantFrom([], 'a')),
      properties: mostly(schemaMap(names), fc.constantFrom([], 'a')),
      patternProperties: mostly(schemaMap(fc.constantFrom('^a', '.*', '(', 'x+')), fc.constant([])),
      $defs: mostly(schemaMap(fc.constantFrom('A', 'B', 'a b', 'a%20b')), fc.constant('A')),
      definitions: mostly(schemaMap(fc.constantFrom('A', 'B')), fc.constant([])),
      dependentSchemas: mostly(schemaMap(names), fc.constant(1)),
      dependencies: mostly(
        fc
          .uniqueArray(fc.tuple(names, fc.oneof(schema(), stringList, fc.constant([1]))), {
            maxLength: 2,
            selector: ([key]) => key,
          })
          .map(objectOf),
        fc.constant([]),
      ),
      dependentRequired: mostly(
        fc.uniqueArray(fc.tuple(names, stringList), { maxLength: 2, selector: ([key]) => key }).map(objectOf),
        fc.constantFrom({ a: 'b' }, { a: [1] }),
      ),
      $ref: mostly(refs, fc.constant(1)),
      $id: mostly(ids, fc.constantFrom(1, '#a', 'http://example.com/s#a')),
      $anchor: mostly(anchors, fc.constant(2)),
      $schema: mostly(fc.constantFrom(...DIALECTS), fc.constant('http://x/y')),
      $recursiveRef: mostly(fc.constant('#'), fc.constant(1)),
      $recursiveAnchor: fc.oneof(fc.boolean(), anchors),
      $dynamicRef: mostly(fc.constantFrom('#meta', '#'), fc.constant(1)),
      $dynamicAnchor: mostly(anchors, fc.constant(1)),
      $vocabulary: mostly(
        fc.constant({ 'https://json-schema.org/draft/2020-12/vocab/core': true }),
        fc.constant({ x: 1 }),
      ),
    }
    const keywordEntry = fc.oneof(
      {
        arbitrary: fc.oneof(
          ...Object.entries(keyword).map(([name, value]) => value.map((v) => [name, v] as const)),
        ),
        weight: 9,
      },
      { arbitrary: fc.tuple(junkKey, jsonish), weight: 1 },
    )
    const node = fc
      .uniqueArray(keywordEntry, { maxLength: 4, selector: ([key]) => key })
      .map((entries) => objectOf(entries))
    return {
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: fc.boolean(), weight: 1 },
        { arbitrary: node, weight: 4 },
      ),
      node,
      keyword: fc.constant(keyword),
    }
  })
}

const { schema: anySchema, node: anyNode } = schemaArbitraries()

export { anySchema }

/**
 * Tool-parameter roots: usually `{ type: 'object', properties, required }` plus other keywords (so a good share
 * passes), sometimes a wrong root (so the root rules fire too).
 */
export const plausibleParameters: fc.Arbitrary<unknown> = fc
  .record(
    {
      $schema: fc.constantFrom(...DIALECTS),
      type: fc.oneof(
        { arbitrary: fc.constant('object'), weight: 8 },
        { arbitrary: fc.constantFrom('string', ['object', 'null']), weight: 1 },
      ),
      properties: fc
        .uniqueArray(fc.tuple(names, anySchema), { maxLength: 4, selector: ([key]) => key })
        .map(objectOf),
      required: fc.uniqueArray(fc.constantFrom('a', 'b', 'path', 'zzz'), { maxLength: 2 }),
      additionalProperties: fc.boolean(),
      $defs: fc
        .uniqueArray(fc.tuple(fc.constantFrom('A', 'B'), anySchema), { maxLength: 2, selector: ([k]) => k })
        .map(objectOf),
    },
    { requiredKeys: ['type', 'properties'] },
  )
  .chain((root) => anyNode.map((extra) => objectOf([...Object.entries(extra), ...Object.entries(root)])))
  .map((root) => {
    // Drop `required` names that are not declared most of the time, so that the rest of the schema decides.
    const properties = root.properties as Record<string, unknown>
    if (Array.isArray(root.required))
      root.required = root.required.filter((name) => Object.hasOwn(properties, name) || name === 'zzz')
    return root
  })

/** Common mistakes to seed repairs: a bare table, `{}`, a missing root type, `required: true` in a property. */
export function breakForRepair(parameters: unknown, how: number): unknown {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return parameters
  const root = parameters as Record<string, unknown>
  const properties = root.properties
  switch (how % 4) {
    case 0:
      return properties
    case 1:
      return {}
    case 2: {
      const { type: _type, ...rest } = root
      return objectOf(Object.entries(rest))
    }
    default: {
      if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
        return parameters
      const marked = Object.entries(properties).map(([name, schema]) =>
        typeof schema === 'object' && schema !== null && !Array.isArray(schema)
          ? ([name, objectOf([...Object.entries(schema), ['required', true]])] as const)
          : ([name, schema] as const),
      )
      return objectOf([
        ...Object.entries(root).filter(([key]) => key !== 'properties'),
        ['properties', objectOf(marked)],
      ])
    }
  }
}
