import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'

/** True when a (wire) schema already lets `null` through: every keyword that constrains null must admit it. */
export function admitsNull(schema: JsonValue): boolean {
  if (schema === true) return true
  if (!isJsonObject(schema)) return false
  const { type, enum: values, const: constant, anyOf, oneOf, nullable } = schema
  if (Array.isArray(values) && !values.includes(null)) return false
  if (Object.hasOwn(schema, 'const') && constant !== null) return false
  if (Array.isArray(anyOf) && !anyOf.some(admitsNull)) return false
  // oneOf: exactly one branch may take null
  if (!Array.isArray(anyOf) && Array.isArray(oneOf) && oneOf.filter(admitsNull).length !== 1) return false
  // Gemini's `nullable: true` widens a `type` (OpenAPI 3.0); `nullable: false` on an untyped node rules null out.
  if (typeof type === 'string') return type === 'null' || nullable === true
  if (Array.isArray(type)) return type.includes('null') || nullable === true
  return nullable !== false
}

const UNION_ANNOTATIONS = new Set(['anyOf', 'oneOf', 'description', 'title', 'default', 'examples'])

/** The same schema, also admitting `null`: how a route that fills optional fields can say "not provided". */
export function widenToNullable(schema: JsonObject): JsonObject {
  const union = Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)
  // A reference admits what its target does: null goes beside it, so the reference stays as it is.
  if (typeof schema.$ref === 'string') return { anyOf: [schema, { type: 'null' }] }
  if (union && Object.keys(schema).some((key) => !UNION_ANNOTATIONS.has(key))) {
    // A union beside other keywords (a typed node narrowed by untyped branches): adding null to both the type and
    // the branches would change what the branches mean, so the whole node becomes one alternative beside null.
    return { anyOf: [schema, { type: 'null' }] }
  }
  const widened: JsonObject = { ...schema }
  // Untyped constraint branches (`{ minLength: 1 }`) already let null through; only typed alternatives need a null one.
  if (Array.isArray(schema.anyOf)) {
    if (!schema.anyOf.some(admitsNull)) widened.anyOf = [...schema.anyOf, { type: 'null' }]
  } else if (Array.isArray(schema.oneOf)) {
    if (!schema.oneOf.some(admitsNull)) widened.oneOf = [...schema.oneOf, { type: 'null' }]
  }
  // A `type` beside a union constrains null too (`{ type: "string", anyOf: [{ minLength: 1 }] }`), so it widens as well.
  if (typeof schema.type === 'string' && schema.type !== 'null') widened.type = [schema.type, 'null']
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    widened.type = [...schema.type, 'null']
  if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null]
  if (Object.hasOwn(schema, 'const')) {
    delete widened.const
    widened.enum = [schema.const as JsonValue, null]
  }
  return widened
}
