import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * A full collection before each timed section, so garbage left by one side is not collected on the other side's
 * clock. `pnpm bench` runs plain `node`, so the flag is switched on at run time; a context created afterwards sees
 * `gc`. If that is refused, timing still works, only noisier.
 */
function loadGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc
  if (existing !== undefined) return existing
  try {
    setFlagsFromString('--expose-gc')
    const gc: unknown = runInNewContext('gc')
    return typeof gc === 'function' ? (gc as () => void) : undefined
  } catch {
    return undefined
  }
}

const gc = loadGc()

/** Whether `collectGarbage()` really collects in this process. */
export const canCollectGarbage = gc !== undefined

export function collectGarbage(): void {
  gc?.()
}

/**
 * `collectGarbage()` at a task boundary. V8 keeps every object a `WeakRef` was dereferenced to alive until the current
 * task ends, and a bench's rounds are one long chain of microtasks: without a turn of the event loop, the state of
 * every earlier sample (whole cordis contexts) stays on the heap and each forced GC gets slower.
 */
export async function collectGarbageSettled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  gc?.()
}
