import { KEYWORD_SHAPES } from '../schema/keywords.ts'

/** Keywords with no meaning for validation; projection drops them (after `$ref`s into `$defs` are inlined). */
export const METADATA: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$vocabulary',
  '$defs',
  'definitions',
])

/** Keywords the projection walker rewrites itself, whatever the profile. */
export const STRUCTURAL: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'enum',
  'const',
  'format',
  'description',
])

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null'

/** Keywords that only constrain values of one type: when a type list is split, each goes to its own branch. */
export const TYPE_OF_KEYWORD: ReadonlyMap<string, JsonType> = new Map<string, JsonType>([
  ...(
    [
      'properties',
      'required',
      'additionalProperties',
      'patternProperties',
      'propertyNames',
      'minProperties',
      'maxProperties',
      'dependencies',
      'dependentRequired',
      'dependentSchemas',
      'unevaluatedProperties',
    ] as const
  ).map((k) => [k, 'object'] as const),
  ...(
    [
      'items',
      'prefixItems',
      'additionalItems',
      'contains',
      'minItems',
      'maxItems',
      'uniqueItems',
      'minContains',
      'maxContains',
      'unevaluatedItems',
    ] as const
  ).map((k) => [k, 'array'] as const),
  ...(
    [
      'minLength',
      'maxLength',
      'pattern',
      'format',
      'contentEncoding',
      'contentMediaType',
      'contentSchema',
    ] as const
  ).map((k) => [k, 'string'] as const),
  ...(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const).map(
    (k) => [k, 'number'] as const,
  ),
])

/** True for JSON Schema vocabulary (as opposed to vendor extensions such as `x-foo` or OpenAPI's `nullable`). */
export function isVocabulary(keyword: string): boolean {
  return KEYWORD_SHAPES.has(keyword) || keyword === 'const' || keyword === 'default' || METADATA.has(keyword)
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as JsonType
}

/** `integer` values are `number` values too, so a type set holding both only needs `number`. */
export function admitsType(types: ReadonlySet<JsonType>, type: JsonType): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'))
}
