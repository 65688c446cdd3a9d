// Test and measurement helpers (regress, bench): dev-only, not published.

export { ManualClock } from './manual-clock.ts'
export { childPids, newChildren } from './processes.ts'
