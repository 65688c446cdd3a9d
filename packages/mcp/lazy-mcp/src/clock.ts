/**
 * The time the gateway's idle release runs on, and what it stamps its status and cache with. The system clock by
 * default; a test drives a `ManualClock` (`@dsh-harden/lazy-mcp/testing`) so that "released exactly one window after
 * the last use" is checked to the millisecond, on any machine, however loaded.
 */
export interface GatewayClock {
  /** Epoch milliseconds. */
  now(): number
  /** Runs `fire` once, `ms` from now; the returned function cancels it. A pending run never keeps the process alive. */
  schedule(fire: () => void, ms: number): () => void
}

export const SYSTEM_CLOCK: GatewayClock = {
  now: () => Date.now(),
  schedule(fire, ms) {
    const timer = setTimeout(fire, ms)
    timer.unref()
    return () => clearTimeout(timer)
  },
}
