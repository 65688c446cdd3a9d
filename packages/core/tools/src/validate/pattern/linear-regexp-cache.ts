import { compileUncached, type LinearPattern } from './linear-regexp-compile.ts'
import { UnsupportedPatternError } from './linear-regexp-refusals.ts'

/**
 * What the process keeps of compiled patterns: at most `entries` of them, together at most `programSize` RE2
 * instructions (a pattern's memory grows with its program). Past either bound the least recently used go first (and
 * are compiled again if they come back), so numerous or hostile patterns cannot grow memory without bound. ajv holds
 * its own reference to each pattern of a live validator, so dropping an entry never changes a verdict.
 */
export const COMPILED_PATTERN_CAP = { entries: 1024, programSize: 1 << 17 } as const

/** Oldest first: a Map iterates in insertion order and every hit is re-inserted. */
const compiled = new Map<string, LinearPattern>()
let compiledProgramSize = 0

const programSize = (entry: LinearPattern): number =>
  entry instanceof UnsupportedPatternError ? 0 : entry.programSize()

function evictBeyondCap(): void {
  for (const [pattern, entry] of compiled) {
    if (
      compiled.size <= COMPILED_PATTERN_CAP.entries &&
      compiledProgramSize <= COMPILED_PATTERN_CAP.programSize
    )
      return
    if (compiled.size === 1) return // the newest is kept even when it alone is over the budget
    compiled.delete(pattern)
    compiledProgramSize -= programSize(entry)
  }
}

/**
 * RE2JS for a JSON Schema pattern, matching exactly as `new RegExp(pattern, 'u').test` does, or why it cannot run;
 * memoized per pattern text within `COMPILED_PATTERN_CAP`.
 */
export function compileLinear(pattern: string): LinearPattern {
  let entry = compiled.get(pattern)
  if (entry !== undefined) {
    compiled.delete(pattern)
    compiled.set(pattern, entry)
    return entry
  }
  entry = compileUncached(pattern)
  compiled.set(pattern, entry)
  compiledProgramSize += programSize(entry)
  evictBeyondCap()
  return entry
}
