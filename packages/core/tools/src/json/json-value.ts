/** Plain JSON values: what a tool schema must be made of so that every serializer sends exactly what was declared. */
export type JsonPrimitive = null | boolean | number | string
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject
export interface JsonObject {
  [key: string]: JsonValue
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Own-key lookup that never walks the prototype chain (a property may be named `constructor` or `__proto__`). */
export function ownValue(object: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined
}

/**
 * Whether `for...in` over a JSON object this package built (prototype `Object.prototype`) would also visit inherited
 * keys: only if some code made a property of `Object.prototype` enumerable. A walk over such copies checks this once,
 * in a few nanoseconds, and then iterates with `for...in`, which reads V8's enum cache where `Object.keys` allocates
 * an array per object; only when this is true does each key need an own-property test.
 */
export function inheritsEnumerableKeys(): boolean {
  for (const _ in Object.prototype) return true
  return false
}

const NO_KEYS: readonly string[] = Object.freeze([])

/**
 * The keys every plain object inherits enumerably from `Object.prototype`: none, unless some code assigned one there
 * (the prototype-pollution bug of some dependency). Code that reads schema keywords as properties, as the projection
 * and every validator do, would find them on every node. Costs a few nanoseconds when there are none. A key defined
 * there as non-enumerable, which takes `Object.defineProperty`, is not listed.
 */
export function pollutedPrototypeKeys(): readonly string[] {
  if (!inheritsEnumerableKeys()) return NO_KEYS
  const keys: string[] = []
  for (const key in Object.prototype) keys.push(key)
  return keys
}

/** Defines an own property even for keys such as `__proto__`, which plain assignment would turn into a prototype swap. */
export function defineOwn(target: object, key: string, value: unknown): void {
  // Assignment is much faster and equivalent on plain objects for every other key.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else (target as Record<string, unknown>)[key] = value
}

/** Literal text in the `jsonText` work stack, told apart from the JSON values still to write. */
class Literal {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/**
 * `JSON.stringify` for plain JSON on an explicit stack: V8's recurses and throws RangeError near 5,000 levels, which
 * schemas within the size limits exceed. `sortKeys` writes object keys sorted, so that values equal as JSON (key
 * order aside) get equal text.
 */
export function jsonText(value: JsonValue, sortKeys = false): string {
  if (!sortKeys) {
    // The native walk is faster; the stack below is for what it cannot nest into.
    try {
      return JSON.stringify(value)
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
    }
  }
  const out: string[] = []
  const pending: (JsonValue | Literal)[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()!
    if (item instanceof Literal) out.push(item.text)
    else if (Array.isArray(item)) {
      out.push('[')
      pending.push(new Literal(']'))
      for (let i = item.length - 1; i >= 0; i--) {
        pending.push(item[i]!)
        if (i > 0) pending.push(new Literal(','))
      }
    } else if (isJsonObject(item)) {
      out.push('{')
      pending.push(new Literal('}'))
      const keys = sortKeys ? Object.keys(item).sort() : Object.keys(item)
      for (let i = keys.length - 1; i >= 0; i--) {
        pending.push(item[keys[i]!]!)
        pending.push(new Literal(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else out.push(JSON.stringify(item))
  }
  return out.join('')
}

/** Whether `key` is an own key of any object inside `value`: one pass on an explicit stack. */
export function containsKey(value: JsonValue, key: string): boolean {
  const pending: JsonValue[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()!
    if (Array.isArray(item)) pending.push(...item)
    else if (isJsonObject(item)) {
      if (Object.hasOwn(item, key)) return true
      for (const member of Object.values(item)) pending.push(member)
    }
  }
  return false
}
