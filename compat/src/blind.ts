import { isRecord } from './judges/schema-nodes.ts'

// Root keywords that tell the model something about the arguments: a named property, a shape for the values of
// unnamed ones, a fixed value, or a composition whose branches may say more.
const INFORMATIVE = [
  'items',
  'prefixItems',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'patternProperties',
  'propertyNames',
  'not',
  'if',
]

/**
 * A tool is **blind** when its declared `inputSchema` tells the model nothing about its arguments. At the root: no
 * property is named (`properties` absent, not an object, or empty), none of `items`, `prefixItems`, `enum`, `const`,
 * `anyOf`, `oneOf`, `allOf`, `$ref`, `patternProperties`, `propertyNames`, `not`, `if` is present, and
 * `additionalProperties` is neither `false` (a tool that takes no argument says so) nor a schema (the values of
 * unnamed keys then have a shape). `{}`, `{ $schema }`, `{ type: 'object' }` and `{ type: 'object', properties: {} }`
 * are blind: each admits any object and names nothing, so the model cannot tell "takes none" from "says nothing".
 */
export function isBlindSchema(schema: unknown): boolean {
  if (!isRecord(schema)) return false
  // A root of another type says something (the root contract refuses it anyway).
  if (schema.type !== undefined && schema.type !== 'object') return false
  if (isRecord(schema.properties) && Object.keys(schema.properties).length > 0) return false
  if (INFORMATIVE.some((keyword) => schema[keyword] !== undefined)) return false
  return schema.additionalProperties !== false && !isRecord(schema.additionalProperties)
}
