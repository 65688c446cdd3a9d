import { isJsonObject, type JsonValue } from '../json/json-value.ts'

/**
 * Equal as JSON values, whatever the key order: projection rebuilds objects, the declared key order is the author's.
 * Pairs are compared on an explicit stack, so a schema nested deeper than the call stack compares fine.
 */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  const pending: [JsonValue, JsonValue][] = [[a, b]]
  while (pending.length > 0) {
    const [left, right] = pending.pop()!
    if (left === right) continue
    if (Array.isArray(left)) {
      if (!Array.isArray(right) || left.length !== right.length) return false
      for (let i = 0; i < left.length; i++) pending.push([left[i]!, right[i]!])
      continue
    }
    if (!isJsonObject(left) || !isJsonObject(right)) return false
    const keys = Object.keys(left)
    if (keys.length !== Object.keys(right).length) return false
    for (const key of keys) {
      if (!Object.hasOwn(right, key)) return false
      pending.push([left[key]!, right[key]!])
    }
  }
  return true
}
