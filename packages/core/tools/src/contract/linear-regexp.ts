import { createRequire } from 'node:module'
import type { RegExpEngine } from 'ajv/dist/types/index.js'
import type { RE2JS } from 're2js'

type Re2js = typeof import('re2js')
let re2js: Re2js | undefined

/** re2js, loaded by the first pattern compiled: about 40 ms of CPU at every DSH start otherwise, for no pattern run. */
function loadRe2js(): Re2js {
  re2js ??= createRequire(import.meta.url)('re2js') as Re2js
  return re2js
}

/**
 * The regex engine ajv uses for every `pattern` and `patternProperties` key of a declared schema (ajv's
 * `code.regExp` hook): RE2JS, a pure-JS port of RE2, which matches by automaton in time linear in the input. A
 * foreign schema's pattern is untrusted input and so are the strings a model sends; with the backtracking engine of
 * `new RegExp` one pattern such as `^(a|a)*$` can freeze the process (DSH's own validator never evaluates `pattern`).
 *
 * RE2 cannot express lookaround or backreferences. Such a pattern is never run on the backtracking engine and never
 * silently skipped: it compiles to a matcher that throws `UnsupportedPatternError`, which the validator turns into a
 * refusal naming the pattern, and `findUnsupportedPatterns` reports it when the validator is compiled.
 */
export class UnsupportedPatternError extends Error {
  override readonly name = 'UnsupportedPatternError'
  readonly pattern: string
  readonly construct: string

  constructor(pattern: string, construct: string) {
    super(
      `pattern ${JSON.stringify(pattern)} uses ${construct}, which the linear-time regex engine (RE2) does not run`,
    )
    this.pattern = pattern
    this.construct = construct
  }
}

/** What a pattern uses that RE2 refuses, in words a schema author can act on. */
export function describeUnsupported(pattern: string, error: unknown): string {
  if (/\(\?<?[=!]/.test(pattern)) return 'lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`)'
  if (/\\[1-9]|\\k</.test(pattern)) return 'a backreference (`\\1`, `\\k<name>`)'
  const detail = error instanceof Error ? error.message : String(error)
  return `syntax RE2 does not accept (${detail})`
}

const compiled = new Map<string, RE2JS | UnsupportedPatternError>()

/** RE2JS for a JSON Schema pattern (ECMA-262 syntax), or why it cannot run; memoized per pattern text. */
export function compileLinear(pattern: string): RE2JS | UnsupportedPatternError {
  let entry = compiled.get(pattern)
  if (entry === undefined) {
    const { RE2JS: re2, RE2JSException } = loadRe2js()
    try {
      entry = re2.compile(re2.translateRegExp(pattern))
    } catch (error) {
      if (!(error instanceof RE2JSException)) throw error
      entry = new UnsupportedPatternError(pattern, describeUnsupported(pattern, error))
    }
    compiled.set(pattern, entry)
  }
  return entry
}

/** ajv's `code.regExp`: `test` searches like `RegExp.prototype.test` (JSON Schema patterns are unanchored). */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, _flags: string) => {
    const engine = compileLinear(pattern)
    return {
      test(input: string): boolean {
        if (engine instanceof UnsupportedPatternError) throw engine
        return engine.test(input)
      },
      toString: () => `re2:${pattern}`,
    }
  },
  // ajv writes this into standalone code only; this package never generates standalone validators.
  { code: 're2js' },
)
