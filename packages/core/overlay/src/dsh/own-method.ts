// biome-ignore lint/suspicious/noExplicitAny: any method signature; callers keep their own types.
type Method = (this: unknown, ...args: any[]) => unknown

/** Whether a method installed by `installForwardingMethod` is still in force. */
export type StillInstalled = () => boolean

/**
 * Installs `wrap(previous, stillInstalled)` itself as an own property `key` of `target` (a live DSH service instance,
 * where an own method shadows the prototype's for every caller), adding no call frame of its own: DSH and cordis
 * capture a stack trace several times per registration, and each frame on the stack costs every capture. The wrapper
 * must only call `previous` once `stillInstalled()` is false. The returned uninstaller is order-safe: the wrapper is
 * removed only while it is still on top, so a wrapper installed later is never cut out of the chain (it keeps
 * calling this one, which then only forwards); when removed, the previous state comes back exactly (an own method,
 * or the prototype's showing through).
 */
export function installForwardingMethod<K extends string, F extends Method>(
  target: { [P in K]: F },
  key: K,
  wrap: (previous: F, stillInstalled: StillInstalled) => F,
): () => void {
  const hadOwn = Object.hasOwn(target, key)
  const previous = target[key]
  let active = true
  const installed = wrap(previous, () => active)
  target[key] = installed
  return () => {
    active = false
    if (target[key] !== installed) return
    if (hadOwn) target[key] = previous
    else delete (target as Partial<typeof target>)[key]
  }
}

/**
 * `installForwardingMethod` for a wrapper that does not forward by itself: one hop in front of it calls `previous`
 * instead once uninstalled.
 */
export function installOwnMethod<K extends string, F extends Method>(
  target: { [P in K]: F },
  key: K,
  wrap: (previous: F) => F,
): () => void {
  return installForwardingMethod<K, F>(target, key, (previous, stillInstalled) => {
    const wrapped = wrap(previous)
    // `apply` with `arguments` forwards without building an array (V8 fast-paths it).
    return function (this: unknown) {
      // biome-ignore lint/complexity/noArguments: forwarding every argument of any arity, see above
      return (stillInstalled() ? wrapped : previous).apply(this, arguments as unknown as Parameters<F>)
    } as F
  })
}
