/**
 * An inert stand-in for a service that lint does not provide. Every property read returns the stand-in itself, and
 * so does every call and `new`, so chains like `ctx.fs.watch(dir).on('change', f)` run without effect. It is not
 * thenable (awaiting it yields it), converts to a labelled string or `0`, iterates as empty and serializes as `null`.
 */
export function createStandIn(service: string): unknown {
  const label = `[dsh-harden stand-in for service "${service}"]`
  const special: Record<PropertyKey, unknown> = {
    toString: () => label,
    toJSON: () => null,
    valueOf: () => label,
    [Symbol.toPrimitive]: (hint: string) => (hint === 'number' ? 0 : label),
    [Symbol.iterator]: function* () {},
    [Symbol.asyncIterator]: async function* () {},
    [Symbol.toStringTag]: 'DshHardenStandIn',
  }
  // A plain function target keeps the stand-in callable and constructible.
  const target = function standIn(): void {}
  const proxy: unknown = new Proxy(target, {
    get(own, key) {
      // Not thenable: `await standIn` must yield it rather than wait forever for a callback.
      if (key === 'then') return undefined
      if (Object.hasOwn(special, key)) return special[key]
      // Framework probes (cordis reads symbol-keyed trackers) must see nothing, or the stand-in gets wrapped.
      if (typeof key === 'symbol') return undefined
      if (key === 'prototype') return Reflect.get(own, key)
      return proxy
    },
    set: () => true,
    defineProperty: () => true,
    deleteProperty: () => true,
    apply: () => proxy,
    construct: () => proxy as object,
  })
  return proxy
}
