// biome-ignore lint/suspicious/noExplicitAny: any method signature; callers keep their own types.
type Method = (this: unknown, ...args: any[]) => unknown

/**
 * Installs `wrap(previous)` as an own property `key` of `target` (a live DSH service instance, where an own method
 * shadows the prototype's for every caller). The returned uninstaller is order-safe: the wrapper turns into a
 * pass-through, and is removed only while it is still on top, so a wrapper installed later is never cut out of the
 * chain; when removed, the previous state comes back exactly (an own method, or the prototype's showing through).
 */
export function installOwnMethod<K extends string, F extends Method>(
  target: { [P in K]: F },
  key: K,
  wrap: (previous: F) => F,
): () => void {
  const hadOwn = Object.hasOwn(target, key)
  const previous = target[key]
  const wrapped = wrap(previous)
  let active = true
  const installed = function (this: unknown, ...args: Parameters<F>) {
    return (active ? wrapped : previous).apply(this, args)
  } as F
  target[key] = installed
  return () => {
    active = false
    if (target[key] !== installed) return
    if (hadOwn) target[key] = previous
    else delete (target as Partial<typeof target>)[key]
  }
}
