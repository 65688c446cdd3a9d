import type { JsonObject, JsonValue } from './tools.ts'
import { asksForJsonText, resolve, wireItem, wireKeyOf, wireProperty } from './wire-encoder.ts'

/**
 * Where a value sent verbatim (as a model reading stock's wire writes it) holds a string that is itself JSON text in a
 * slot the wire asks to be written as JSON text: `"[]"` there means the string `[]` to stock and the empty array to a
 * model reading the wire. Such a slot exists only where a sourced rule re-encodes what the route misreads (PROFILES.md,
 * "Any-JSON slots are sent as JSON text"), so the verbatim call and the wire's call differ by construction; the
 * encoded leg checks those values. Read from the wire alone, like the encoder. Returns the JSON paths found.
 */
export function jsonTextStrings(
  value: JsonValue,
  root: JsonObject,
  renames: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const found: string[][] = []
  walk(value, root, [], root, renames, found)
  return found
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function walk(
  value: JsonValue,
  at: JsonValue,
  path: readonly string[],
  root: JsonObject,
  renames: ReadonlyMap<string, readonly string[]>,
  found: string[][],
): void {
  const node = resolve(root, at)
  if (!isObject(node)) return
  if (asksForJsonText(node)) {
    if (typeof value === 'string' && parsesAsJson(value)) found.push([...path])
    return
  }
  const branches = [node.anyOf, node.oneOf].find(Array.isArray)
  if (branches !== undefined) {
    // Projection never puts a JSON-text branch beside one that takes strings as they are, so a string meets at most
    // one kind: the first branch that finds one decides.
    for (const branch of branches) {
      const before = found.length
      walk(value, branch, path, root, renames, found)
      if (found.length > before) return
    }
    return
  }
  if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const schema = wireProperty(node, wireKeyOf(key, node, renames))
      if (schema !== undefined) walk(child, schema, [...path, key], root, renames, found)
    }
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      walk(item, wireItem(node, index), [...path, String(index)], root, renames, found)
  }
}
