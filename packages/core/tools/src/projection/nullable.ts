import { isJsonObject, type JsonObject, type JsonValue } from '../json-value.ts'

/** True when a (wire) schema already lets `null` through. */
export function admitsNull(schema: JsonValue): boolean {
  if (schema === true) return true
  if (!isJsonObject(schema)) return false
  const { type, enum: values, const: constant, anyOf, oneOf } = schema
  if (Array.isArray(values)) return values.includes(null)
  if (Object.hasOwn(schema, 'const')) return constant === null
  if (Array.isArray(anyOf) || Array.isArray(oneOf))
    return [...((anyOf ?? oneOf) as JsonValue[])].some(admitsNull)
  if (typeof type === 'string') return type === 'null'
  if (Array.isArray(type)) return type.includes('null')
  return !Object.hasOwn(schema, 'nullable') || schema.nullable === true
}

/** The same schema, also admitting `null`: how a route that fills optional fields can say "not provided". */
export function widenToNullable(schema: JsonObject): JsonObject {
  const widened: JsonObject = { ...schema }
  if (Array.isArray(schema.anyOf)) widened.anyOf = [...schema.anyOf, { type: 'null' }]
  else if (Array.isArray(schema.oneOf)) widened.oneOf = [...schema.oneOf, { type: 'null' }]
  else if (typeof schema.type === 'string') widened.type = [schema.type, 'null']
  else if (Array.isArray(schema.type)) widened.type = [...schema.type, 'null']
  if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null]
  if (Object.hasOwn(schema, 'const')) {
    delete widened.const
    widened.enum = [schema.const as JsonValue, null]
  }
  return widened
}
