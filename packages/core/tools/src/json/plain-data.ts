/**
 * What tells plain JSON data from anything else: shared by the snapshot's walk (`check/snapshot.ts`), its fast pass
 * (`check/fast-copy.ts`) and every reader of a listed tool or schema (`repair/`, `mcp/`).
 */

type AccessorLookup = (this: object, key: PropertyKey) => ((...args: never[]) => unknown) | undefined

/**
 * The legacy lookup answers "is there a setter?" without allocating a descriptor, as `Reflect.getOwnPropertyDescriptor`
 * does; a key from `Object.keys` is own, so it does not walk the prototype chain.
 */
export const { __lookupSetter__: lookupSetter } = Object.prototype as unknown as {
  readonly __lookupSetter__: AccessorLookup
}

/** A plain object literal's prototype (or none), or a plain array's. */
export function isPlainPrototype(proto: object | null, isArray: boolean): boolean {
  return proto === null ? !isArray : proto === (isArray ? Array.prototype : Object.prototype)
}

/** Why a value that is not an object is not lossless JSON, or `undefined` when it is. */
export function describePrimitive(value: unknown): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return 'undefined (JSON has no undefined: remove the key)'
    case 'function':
      return 'a function (schemas are data: move the logic into execute)'
    case 'symbol':
      return 'a symbol'
    case 'bigint':
      return 'a bigint (use a number)'
    case 'number':
      if (Number.isNaN(value)) return 'NaN (JSON has no NaN)'
      if (!Number.isFinite(value)) return 'an infinite number (JSON has no Infinity)'
      if (Object.is(value, -0)) return '-0 (JSON sends it as 0)'
      return undefined
    default:
      return undefined
  }
}

/** A plain object (not an array, class instance or null): what a listed tool and its schemas must be. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Own-key read that never reaches the prototype chain (a key may be `__proto__` or `constructor`). */
export function ownField(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined
}
