import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv'
import type { Ajv2019 } from 'ajv/dist/2019.js'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import type { FormatsPlugin } from 'ajv-formats'
import { toPointer } from '../json-pointer.ts'
import { type JsonObject, jsonText } from '../json-value.ts'
import { type Dialect, dialectOf } from '../keywords.ts'
import type { WorkMeter } from '../work-meter.ts'
import { linearRegExp, UnsupportedPatternError } from './linear-regexp.ts'
import { ERROR_BUDGET, memoizeRefs, memoRefKeyword, withMemo } from './memo-refs.ts'
import type { ArgumentViolation } from './tool-args-error.ts'

/**
 * Argument validation, compiled once per distinct schema text (ajv generates a function; calls are the cheap hot
 * path), and only when a tool's arguments are first validated, so registering tools costs no compile.
 *
 * Two validators per schema: the hot one (`allErrors: false`) answers valid or not and stops at the first error; only
 * a refused call runs the second (`allErrors: true`) to word the refusal, listing at most
 * `ERROR_BUDGET` errors. Both evaluate every `pattern` with a linear-time engine and memoize `$ref` verdicts per
 * value position (`memo-refs.ts`), so neither does more than linear work on a hostile schema.
 */
export type ArgumentValidator = (args: unknown, meter?: WorkMeter) => readonly ArgumentViolation[]

type AnyAjv = Ajv | Ajv2019 | Ajv2020
type Mode = 'hot' | 'full'

interface AjvModules {
  readonly Ajv: typeof Ajv
  readonly Ajv2019: typeof Ajv2019
  readonly Ajv2020: typeof Ajv2020
  readonly addFormats: FormatsPlugin
}

let ajvModules: AjvModules | undefined

/**
 * ajv and ajv-formats, loaded when the first validator is compiled rather than when this package is imported: they
 * are some forty CommonJS files, about 40 ms of CPU at every DSH start, and a session that validates no arguments
 * (the overlay's default) never needs them.
 */
function loadAjv(): AjvModules {
  if (ajvModules === undefined) {
    const require = createRequire(import.meta.url)
    ajvModules = {
      Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
      Ajv2019: (require('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019,
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
      addFormats: (require('ajv-formats') as { default: FormatsPlugin }).default,
    }
  }
  return ajvModules
}

const engines = new Map<string, AnyAjv>()
const compiled = new Map<string, CompiledSchema>()
const failures = new Map<string, unknown>()
// Shared by every valid call, so the hot path allocates nothing.
const NO_VIOLATIONS: readonly ArgumentViolation[] = Object.freeze([])
let documents = 0
// Validators whose schema copy has memoized references: only they need a memo per call (a schema without `$ref`
// pays nothing for it).
const memoizing = new WeakSet<ValidateFunction>()

function engine(dialect: Dialect, mode: Mode): AnyAjv {
  const name = `${dialect}/${mode}`
  let ajv = engines.get(name)
  if (ajv === undefined) {
    // `validateSchema: false`: the shape check has already validated the schema at register, and ajv's meta-schema
    // check is quadratic in an `enum`'s length (its uniqueItems), 0.8 s at 20,000 values.
    const options: Options = {
      strict: false,
      allErrors: mode === 'full',
      logger: false,
      validateSchema: false,
      code: { regExp: linearRegExp },
    }
    const modules = loadAjv()
    const created: AnyAjv =
      dialect === '2020-12'
        ? new modules.Ajv2020(options)
        : dialect === '2019-09'
          ? new modules.Ajv2019(options)
          : new modules.Ajv(options)
    modules.addFormats(created)
    created.addKeyword(
      memoRefKeyword((uri) => {
        const validate = created.getSchema(uri)
        if (validate === undefined) throw new Error(`ajv cannot resolve reference ${uri}`)
        return validate as ValidateFunction & ((data: unknown, context: object) => boolean)
      }),
    )
    engines.set(name, created)
    ajv = created
  }
  return ajv
}

/**
 * One declared schema, as each validator needs it. Both are compiled together (on first validation), so a schema
 * either of them cannot compile — ajv's compiler recurses per level, and the full one generates more per level — is
 * one compile problem, reported once, rather than a refusal that appears only on the first refused call.
 */
class CompiledSchema {
  private readonly schema: JsonObject
  private readonly dialect: Dialect
  readonly hot: ValidateFunction
  readonly full: ValidateFunction

  constructor(schema: JsonObject, dialect: Dialect) {
    this.schema = schema
    this.dialect = dialect
    this.hot = this.compile('hot')
    this.full = this.compile('full')
  }

  private compile(mode: Mode): ValidateFunction {
    const ajv = engine(this.dialect, mode)
    const key = `dsh-harden:parameters/${++documents}`
    const memoized = memoizeRefs(this.schema, key)
    // Two tools may reuse one `$id` for different schemas; ajv keys compiled schemas by it, and local refs need none.
    const { $id: _id, ...anonymous } = this.schema
    if (memoized === undefined) return ajv.compile(anonymous)
    ajv.addSchema(memoized.schema, key)
    try {
      const validate = ajv.getSchema(key)!
      // Every target compiled now, so a reference ajv cannot compile is a problem of this compile, not of a call.
      for (const ref of memoized.refs)
        if (ajv.getSchema(`${key}${ref}`) === undefined) throw new Error(`cannot resolve ${ref}`)
      memoizing.add(validate)
      return validate
    } catch (error) {
      ajv.removeSchema(key)
      // A reference the copy could not mirror: the plain schema, whose `$ref`s ajv resolves itself, or its own error.
      if (error instanceof RangeError) throw error
      return ajv.compile(anonymous)
    }
  }
}

function toViolation(error: ErrorObject): ArgumentViolation {
  const missing =
    error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined
  const pointer = missing === undefined ? error.instancePath : `${error.instancePath}${toPointer([missing])}`
  const message =
    missing === undefined ? (error.message ?? `fails ${error.keyword}`) : 'is required but missing'
  return { pointer, keyword: error.keyword, message }
}

type Outcome =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid' | 'unchecked'; readonly violations: readonly ArgumentViolation[] }

const VALID: Outcome = { kind: 'valid' }

/** Runs a compiled validator once; what it throws becomes the one violation the caller can act on (`unchecked`). */
function run(validate: ValidateFunction, args: unknown, meter: WorkMeter | undefined): Outcome {
  meter?.count('validator-call')
  try {
    const valid = memoizing.has(validate)
      ? withMemo(meter, () => validate(args) as boolean)
      : (validate(args) as boolean)
    return valid ? VALID : { kind: 'invalid', violations: (validate.errors ?? []).map(toViolation) }
  } catch (error) {
    const unchecked = (violation: ArgumentViolation): Outcome => ({
      kind: 'unchecked',
      violations: [violation],
    })
    if (error instanceof UnsupportedPatternError)
      return unchecked({
        pointer: '',
        keyword: 'pattern',
        message: `cannot be checked: ${error.message} (rewrite the pattern without lookaround or backreferences)`,
      })
    // ajv's generated code recurses with the data along recursive references (and forever on a schema that refers
    // to itself without consuming data): report that as a violation instead of throwing RangeError at the caller.
    if (!(error instanceof RangeError)) throw error
    return unchecked({ pointer: '', keyword: '$ref', message: `could not be validated: ${error.message}` })
  }
}

/** At most `ERROR_BUDGET` violations, each reported once, and a last one saying more were left out. */
function withinBudget(violations: readonly ArgumentViolation[]): readonly ArgumentViolation[] {
  const seen = new Set<string>()
  const kept: ArgumentViolation[] = []
  let more = false
  for (const violation of violations) {
    const key = `${violation.pointer}\u0000${violation.keyword}\u0000${violation.message}`
    if (seen.has(key)) continue
    seen.add(key)
    if (kept.length === ERROR_BUDGET) {
      more = true
      break
    }
    kept.push(violation)
  }
  if (more)
    kept.push({
      pointer: '',
      keyword: 'errors',
      message: `…and more (only the first ${ERROR_BUDGET} are listed)`,
    })
  return kept
}

/**
 * Compiles (or reuses) the validators for a declared schema. Throws what ajv throws for a schema it cannot compile
 * (remembered: the same schema fails again without a second attempt).
 */
export function compileValidator(schema: JsonObject): ArgumentValidator {
  const key = jsonText(schema)
  let entry = compiled.get(key)
  if (entry === undefined) {
    if (failures.has(key)) throw failures.get(key)
    const declared = typeof schema.$schema === 'string' ? dialectOf(schema.$schema) : undefined
    try {
      entry = new CompiledSchema(schema, declared ?? 'draft-07')
    } catch (error) {
      failures.set(key, error)
      throw error
    }
    compiled.set(key, entry)
  }
  const schemaEntry = entry
  return (args, meter) => {
    const hot = run(schemaEntry.hot, args, meter)
    if (hot.kind === 'valid') return NO_VIOLATIONS
    // A thrown refusal (a pattern RE2 cannot run, a stack overflow) is already the whole story.
    if (hot.kind === 'unchecked') return hot.violations
    const all = run(schemaEntry.full, args, meter)
    return all.kind === 'valid' ? hot.violations : withinBudget(all.violations)
  }
}
