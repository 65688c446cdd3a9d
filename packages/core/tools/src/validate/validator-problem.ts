import type { ToolIdentity } from '../check/errors.ts'
import type { JsonObject } from '../json/json-value.ts'
import type { ArgumentViolation } from '../read/tool-args-error.ts'
import type { PatternProblem } from './pattern-problems.ts'
import { CompileBudgetError } from './validator.ts'

/**
 * A real check to use when ajv cannot compile a declared schema. The core stays DSH-free, so the overlay passes one
 * in (DSH's own `validateJsonSchemaValue` from `@deepseek-ai/dsh-tools`, which walks on an explicit stack).
 */
export interface FallbackValidator {
  /** Names the check in reports, e.g. "DSH validateJsonSchemaValue". */
  readonly label: string
  validate(schema: JsonObject, args: unknown): readonly ArgumentViolation[]
}

/**
 * Reported once per tool, when its validator is compiled (first validation, or `contract.compileValidator()`), when
 * ajv cannot compile its declared schema or a `pattern` in it cannot run on the linear-time regex engine.
 */
export interface ValidatorProblem {
  readonly identity: ToolIdentity
  /** Where in the declared schema, when the problem is one keyword (a `pattern`). */
  readonly pointer?: string | undefined
  /** The construct ajv could not compile, in words a plugin author can act on. */
  readonly construct: string
  /** What ajv said. */
  readonly detail: string
  /** What checks arguments instead: the fallback's label, or that every call is refused. */
  readonly fallback: string
}

export const NO_FALLBACK =
  'none: every call is refused with ToolArgsError (pass a fallbackValidator, or simplify the schema)'

/** The construct behind an ajv compile failure, from the error ajv throws (or the compile budget's refusal). */
export function describeCompileFailure(error: unknown): { construct: string; detail: string } {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  if (error instanceof CompileBudgetError)
    return {
      construct:
        'more schema nodes than the validator compiles, whose compile time grows faster than the schema (split the parameters into smaller tools, or simplify them)',
      detail,
    }
  if (error instanceof RangeError)
    return {
      construct:
        "ajv's compiler ran out of call stack: nesting deeper than it compiles (it recurses per level; about 500 nested objects here), or a `$ref` it resolves in a loop (a `$ref` beside a nested `$id`)",
      detail,
    }
  if (/resolves to more than one schema|already exists/.test(detail))
    return { construct: 'a `$id` or `$anchor` used twice in one schema', detail }
  if (/can't resolve reference/i.test(detail))
    return {
      construct: 'a `$ref` ajv resolves against a nested `$id` base URI, where it finds nothing',
      detail,
    }
  return { construct: 'a construct ajv does not compile', detail }
}

/** A `pattern` RE2 cannot run: ajv validates everything else; a call whose value reaches that pattern is refused. */
export function patternProblem(identity: ToolIdentity, problem: PatternProblem): ValidatorProblem {
  return {
    identity,
    pointer: problem.pointer,
    construct: `the \`pattern\` ${JSON.stringify(problem.pattern)} at ${problem.pointer} uses ${problem.construct}, which the linear-time regex engine (RE2) cannot run with ECMAScript's meaning`,
    detail: problem.hint,
    fallback:
      'ajv for every other keyword; a call whose value reaches this pattern is refused with ToolArgsError (never matched by a backtracking engine)',
  }
}

/** The message every call gets when no real check is available: refused, never accepted unchecked. */
export function uncheckable(problem: ValidatorProblem): readonly ArgumentViolation[] {
  return Object.freeze([
    {
      pointer: '',
      keyword: 'schema',
      message: `cannot be checked: ajv cannot compile this tool's parameters (${problem.construct}) and no fallback validator was given`,
    },
  ])
}
