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

/** Defines an own property even for keys such as `__proto__`, which plain assignment would turn into a prototype swap. */
export function defineOwn(target: object, key: string, value: unknown): void {
  // Assignment is much faster and equivalent on plain objects for every other key.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else (target as Record<string, unknown>)[key] = value
}
