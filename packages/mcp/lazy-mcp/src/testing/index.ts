// Test and measurement helpers (regress, bench): dev-only, not published.
export { childPids, newChildren } from './processes.ts'
