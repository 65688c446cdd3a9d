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
