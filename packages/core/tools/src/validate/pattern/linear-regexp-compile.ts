import { createRequire } from 'node:module'
import type { RE2JS } from 're2js'
import {
  EMPTY_NON_BOUNDARY,
  invalidInUnicodeMode,
  type Refusal,
  Refused,
  rejectedByRe2,
  UnsupportedPatternError,
} from './linear-regexp-refusals.ts'
import { betweenPairHalves, EXACT, NEVER, Translation } from './linear-regexp-translation.ts'

type Re2js = typeof import('re2js')
let re2js: Re2js | undefined

/** re2js, loaded by the first pattern compiled: about 40 ms of CPU at every DSH start otherwise, for no pattern run. */
function loadRe2js(): Re2js {
  re2js ??= createRequire(import.meta.url)('re2js') as Re2js
  return re2js
}

/** Why `pattern` is not a `u`-mode regex, or `undefined` when it is one (V8 parses it; nothing is matched). */
function unicodeModeError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u')
    return undefined
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return message.replace(/^Invalid regular expression: \/.*\/u: /s, '')
  }
}

/** A compiled pattern, or why it cannot run. */
export type LinearPattern = RE2JS | UnsupportedPatternError

/**
 * Whether the pattern can match the empty string between the two halves of a surrogate pair, and there only through
 * a `\B`. V8 tries a match at that index (unlike the specification, which steps over whole code points): `/\B/u`
 * matches `"a😀a"` in V8 and never in RE2, which steps by code point too.
 */
function matchesEmptyOnlyInsidePairs(pattern: string, re2: Re2js['RE2JS']): boolean {
  const emptyWith = (nonBoundary: string): boolean => {
    const syntax = new Translation(pattern, betweenPairHalves(nonBoundary)).run()
    if (typeof syntax !== 'string') throw new Refused(syntax) // only the budget: the rest was read once already
    return re2.compile(syntax).test('')
  }
  return emptyWith('(?:)') && !emptyWith(NEVER)
}

function translated(pattern: string): RE2JS | Refusal {
  const invalid = unicodeModeError(pattern)
  if (invalid !== undefined) return invalidInUnicodeMode(invalid)
  const translation = new Translation(pattern, EXACT)
  const syntax = translation.run()
  if (typeof syntax !== 'string') return syntax
  const { RE2JS: re2, RE2JSException } = loadRe2js()
  try {
    if (translation.usesNonBoundary && matchesEmptyOnlyInsidePairs(pattern, re2)) return EMPTY_NON_BOUNDARY
    return re2.compile(syntax)
  } catch (error) {
    if (error instanceof Refused) return error.refusal
    if (!(error instanceof RE2JSException)) throw error
    return rejectedByRe2(error.message.replace(/^error parsing regexp: /, ''))
  }
}

/** RE2JS for a JSON Schema pattern with exactly ECMAScript's `u`-mode meaning, or why it cannot run. */
export function compileUncached(pattern: string): LinearPattern {
  const engine = translated(pattern)
  return 'construct' in engine ? new UnsupportedPatternError(pattern, engine.construct, engine.hint) : engine
}
