import type { RegExpEngine } from 'ajv/dist/types/index.js'
import { compileLinear } from './linear-regexp-cache.ts'
import { UnsupportedPatternError } from './linear-regexp-refusals.ts'

/**
 * The regex engine ajv uses for every `pattern` and `patternProperties` key of a declared schema (ajv's
 * `code.regExp` hook): RE2JS, a pure-JS port of RE2, which matches by automaton in time linear in the input. A
 * foreign schema's pattern is untrusted input and so are the strings a model sends; with the backtracking engine of
 * `new RegExp` one pattern such as `^(a|a)*$` can freeze the process (DSH's own validator never evaluates `pattern`).
 *
 * JSON Schema patterns are ECMA-262 regexes and ajv builds them with the `u` flag, so every pattern is translated
 * into RE2 syntax that means exactly what `new RegExp(pattern, 'u')` means, construct by construct
 * (`linear-regexp-translation.ts`, over the code-point sets of `linear-regexp-code-points.ts`), compiled by RE2JS
 * (`linear-regexp-compile.ts`) and memoized within a cap (`linear-regexp-cache.ts`). What has no exact translation
 * (lookaround, backreferences, …) or is not a valid `u`-mode regex is never run on the backtracking engine, never
 * run with another meaning and never silently skipped: it compiles to a matcher that throws
 * `UnsupportedPatternError` (`linear-regexp-refusals.ts`), which the validator turns into a refusal naming the
 * pattern, and `findUnsupportedPatterns` reports it when the validator is compiled.
 */
export { COMPILED_PATTERN_CAP, compileLinear } from './linear-regexp-cache.ts'
export { UnsupportedPatternError } from './linear-regexp-refusals.ts'

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
