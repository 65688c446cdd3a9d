import { isJsonObject, type JsonValue } from '../json-value.ts'

/** Equal as JSON values, whatever the key order: projection rebuilds objects, the declared key order is the author's. */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]!))
  if (!isJsonObject(a) || !isJsonObject(b)) return false
  const keys = Object.keys(a)
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key]!, b[key]!))
  )
}
