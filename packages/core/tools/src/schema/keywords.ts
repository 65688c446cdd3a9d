/**
 * The JSON Schema vocabulary this package understands, by the shape each keyword's value must have
 * (draft-07 and 2020-12 meta-schemas). Unknown keywords are allowed, as JSON Schema allows them.
 */
export type KeywordShape =
  | 'schema'
  | 'schema-or-schema-list'
  | 'schema-list'
  | 'schema-map'
  | 'pattern-schema-map'
  | 'dependencies'
  | 'string-list-map'
  | 'type'
  | 'required'
  | 'enum'
  | 'string'
  | 'regex'
  | 'ref'
  | 'dialect'
  | 'number'
  | 'positive-number'
  | 'count'
  | 'boolean'
  | 'list'
  | 'id'
  | 'anchor'
  | 'recursive-anchor'
  | 'boolean-map'

export const KEYWORD_SHAPES: ReadonlyMap<string, KeywordShape> = new Map<string, KeywordShape>([
  ['not', 'schema'],
  ['if', 'schema'],
  ['then', 'schema'],
  ['else', 'schema'],
  ['contains', 'schema'],
  ['propertyNames', 'schema'],
  ['additionalProperties', 'schema'],
  ['additionalItems', 'schema'],
  ['unevaluatedProperties', 'schema'],
  ['unevaluatedItems', 'schema'],
  ['contentSchema', 'schema'],
  ['items', 'schema-or-schema-list'],
  ['allOf', 'schema-list'],
  ['anyOf', 'schema-list'],
  ['oneOf', 'schema-list'],
  ['prefixItems', 'schema-list'],
  ['properties', 'schema-map'],
  ['$defs', 'schema-map'],
  ['definitions', 'schema-map'],
  ['dependentSchemas', 'schema-map'],
  ['patternProperties', 'pattern-schema-map'],
  ['dependencies', 'dependencies'],
  ['dependentRequired', 'string-list-map'],
  ['type', 'type'],
  ['required', 'required'],
  ['enum', 'enum'],
  ['pattern', 'regex'],
  ['$ref', 'ref'],
  ['$schema', 'dialect'],
  ['$id', 'id'],
  ['$anchor', 'anchor'],
  ['$dynamicAnchor', 'anchor'],
  ['$recursiveAnchor', 'recursive-anchor'],
  ['$recursiveRef', 'string'],
  ['$dynamicRef', 'string'],
  ['$vocabulary', 'boolean-map'],
  ['$comment', 'string'],
  ['title', 'string'],
  ['description', 'string'],
  ['format', 'string'],
  ['contentMediaType', 'string'],
  ['contentEncoding', 'string'],
  ['minimum', 'number'],
  ['maximum', 'number'],
  ['exclusiveMinimum', 'number'],
  ['exclusiveMaximum', 'number'],
  ['multipleOf', 'positive-number'],
  ['minLength', 'count'],
  ['maxLength', 'count'],
  ['minItems', 'count'],
  ['maxItems', 'count'],
  ['minProperties', 'count'],
  ['maxProperties', 'count'],
  ['minContains', 'count'],
  ['maxContains', 'count'],
  ['uniqueItems', 'boolean'],
  ['readOnly', 'boolean'],
  ['writeOnly', 'boolean'],
  ['deprecated', 'boolean'],
  ['examples', 'list'],
])

export const JSON_TYPES: ReadonlySet<string> = new Set([
  'object',
  'array',
  'string',
  'number',
  'integer',
  'boolean',
  'null',
])

// Type names people write from other languages or from DSH's defineTool DSL, and what JSON Schema calls them.
export const TYPE_SUGGESTIONS: ReadonlyMap<string, string> = new Map([
  [
    'json',
    'omit `type` for "any JSON value" (DSH\'s defineTool `json` is DSL-only), or list the types you accept',
  ],
  ['any', 'omit `type` for "any JSON value", or list the types you accept'],
  ['list', 'use "array"'],
  ['tuple', 'use "array"'],
  ['dict', 'use "object"'],
  ['map', 'use "object"'],
  ['record', 'use "object"'],
  ['int', 'use "integer"'],
  ['long', 'use "integer"'],
  ['float', 'use "number"'],
  ['double', 'use "number"'],
  ['str', 'use "string"'],
  ['text', 'use "string"'],
  ['bool', 'use "boolean"'],
  ['none', 'use "null"'],
  ['undefined', 'make the property optional instead (leave it out of `required`)'],
])

/** Meta-schema dialects whose vocabulary matches this table. */
export const DIALECTS: ReadonlyMap<string, 'draft-07' | '2019-09' | '2020-12'> = new Map([
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
])

export type Dialect = 'draft-07' | '2019-09' | '2020-12'

// The plain names an anchor may have, per the 2019-09 and 2020-12 core meta-schemas (they differ on `:` and `_`).
// draft-07 has no `$anchor`, but `$ref` resolution here honours it in every dialect, so it gets the 2019-09 rule.
export const ANCHOR_NAMES: Readonly<Record<Dialect, RegExp>> = {
  'draft-07': /^[A-Za-z][-A-Za-z0-9.:_]*$/,
  '2019-09': /^[A-Za-z][-A-Za-z0-9.:_]*$/,
  '2020-12': /^[A-Za-z_][-A-Za-z0-9._]*$/,
}

/** Resolves a `$schema` URI (with or without the empty fragment) to a dialect this package checks. */
export function dialectOf(uri: string): Dialect | undefined {
  return DIALECTS.get(uri.endsWith('#') ? uri.slice(0, -1) : uri)
}
