import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv'
import type { Ajv2019 } from 'ajv/dist/2019.js'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import type { FormatsPlugin } from 'ajv-formats'
import { toPointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue, jsonText } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import type { ArgumentViolation } from '../read/tool-args-error.ts'
import { type Dialect, dialectOf, KEYWORD_SHAPES } from '../schema/keywords.ts'
import { subschemasAt } from '../schema/subschemas.ts'
import { ERROR_BUDGET, memoizeRefs, memoRefKeyword, withMemo } from './memo-refs.ts'
import { linearRegExp, UnsupportedPatternError } from './pattern/linear-regexp.ts'

/**
 * Argument validation, compiled once per distinct schema text among live contracts (ajv generates a function; calls
 * are the cheap hot path), and only when a tool's arguments are first validated, so registering tools costs no
 * compile. A compiled schema lives as long as a contract holds its validator: when the last one is collected, what
 * the compile added to ajv's caches is removed (`removeSchema`), and engines are renewed (`ENGINE_NODE_BUDGET`), so
 * unregistered tools leave nothing behind that grows with their number.
 *
 * Two validators per schema: the hot one (`allErrors: false`) answers valid or not and stops at the first error; only
 * a refused call runs the second (`allErrors: true`) to word the refusal, listing at most
 * `ERROR_BUDGET` errors. Both evaluate every `pattern` with a linear-time engine and memoize `$ref` verdicts per
 * value position (`memo-refs.ts`), so neither does more than linear work on a hostile schema.
 */
export type ArgumentValidator = (args: unknown, meter?: WorkMeter) => readonly ArgumentViolation[]

/**
 * The most schema nodes (the root and every schema nested in it) a contract's validator is compiled for. The hot
 * validator's code nests every check inside the one before (`allErrors: false`), and V8 compiles code nested n deep
 * in time that grows faster than n (a 120 KB `allOf` of 800 small objects took 5 s; past about 2,400 branches V8
 * overflows its stack). Real tool schemas have a few dozen nodes; a larger one is checked by the fallback validator,
 * and the validator problem gives its size and this budget.
 */
export const COMPILE_NODE_BUDGET = 1_000

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

/**
 * An engine serves compiles until it has compiled this many schema nodes, then a fresh one takes over. ajv keeps
 * every validator an engine compiled in the engine's shared scope (`scope.validate`, for references between
 * schemas), and no `removeSchema` takes it out: so an engine is retired early and collected with the last validator
 * it compiled, and what dead tools leave behind is at most one engine's share (about 2 KB per node). A fresh engine
 * costs about 0.3 ms and 22 KB.
 */
export const ENGINE_NODE_BUDGET = 500

interface Engine {
  readonly ajv: AnyAjv
  /** Schema nodes compiled so far (see `ENGINE_NODE_BUDGET`). */
  nodes: number
}

// At most one current engine per dialect and mode: six entries.
const engines = new Map<string, Engine>()
// Shared by every valid call, so the hot path allocates nothing.
const NO_VIOLATIONS: readonly ArgumentViolation[] = Object.freeze([])
let documents = 0
// Validators whose schema copy has memoized references: only they need a memo per call (a schema without `$ref`
// pays nothing for it).
const memoizing = new WeakSet<ValidateFunction>()
// The meter of the compile in progress (compiling is synchronous), told the size of each function ajv generates.
let compileMeter: WorkMeter | undefined

function createAjv(dialect: Dialect, mode: Mode): AnyAjv {
  // `validateSchema: false`: the shape check has already validated the schema at register, and ajv's meta-schema
  // check is quadratic in an `enum`'s length (its uniqueItems), 0.8 s at 20,000 values. `optimize: false`: ajv's
  // one optimizing pass rebuilds, at every nested block, the set of names used below it, so its time grows with the
  // square of the nesting, which the hot validator's code has as deep as a schema has checks; V8 drops the unused
  // declarations it would have removed. `addUsedSchema: false`: a compiled schema is not kept under its `$id`.
  const options: Options = {
    strict: false,
    allErrors: mode === 'full',
    logger: false,
    validateSchema: false,
    addUsedSchema: false,
    code: {
      regExp: linearRegExp,
      optimize: false,
      process: (source) => {
        compileMeter?.count('compile-code', source.length)
        return source
      },
    },
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
  return created
}

/**
 * The engine to compile `nodes` schema nodes with. A schema with a nested `$id` gets an engine of its own: ajv
 * records nested ids engine-wide, where no `removeSchema` reaches them, and resolves other schemas' references by them.
 */
function engineFor(dialect: Dialect, mode: Mode, nodes: number, nestedId: boolean): AnyAjv {
  if (nestedId) return createAjv(dialect, mode)
  const name = `${dialect}/${mode}`
  let current = engines.get(name)
  if (current === undefined || current.nodes >= ENGINE_NODE_BUDGET) {
    current = { ajv: createAjv(dialect, mode), nodes: 0 }
    engines.set(name, current)
  }
  current.nodes += nodes
  return current.ajv
}

/** What one compile added to an engine's caches: removed when its validators are collected. */
interface EngineEntries {
  readonly ajv: AnyAjv
  readonly schemas: object[]
  readonly keys: string[]
}

function removeEntries(entries: readonly EngineEntries[]): void {
  for (const { ajv, schemas, keys } of entries) {
    for (const schema of schemas) ajv.removeSchema(schema)
    for (const key of keys) ajv.removeSchema(key)
  }
}

/**
 * One declared schema, as each validator needs it. Both are compiled together (on first validation), so a schema
 * either of them cannot compile — ajv's compiler recurses per level, and the full one generates more per level — is
 * one compile problem, reported once, rather than a refusal that appears only on the first refused call. What the
 * compile added to ajv's caches is listed in `entries`, which outlives this object to release them.
 */
class CompiledSchema {
  private readonly schema: JsonObject
  private readonly dialect: Dialect
  private readonly size: SchemaSize
  readonly entries: EngineEntries[] = []
  readonly hot: ValidateFunction
  readonly full: ValidateFunction

  constructor(schema: JsonObject, dialect: Dialect, size: SchemaSize, meter: WorkMeter | undefined) {
    this.schema = schema
    this.dialect = dialect
    this.size = size
    const outerMeter = compileMeter
    compileMeter = meter
    try {
      this.hot = this.compile('hot')
      this.full = this.compile('full')
    } catch (error) {
      removeEntries(this.entries)
      throw error
    } finally {
      compileMeter = outerMeter
    }
  }

  private compile(mode: Mode): ValidateFunction {
    const ajv = engineFor(this.dialect, mode, this.size.nodes, this.size.nestedId)
    const added: EngineEntries = { ajv, schemas: [], keys: [] }
    // An engine of its own goes with the validator; only a shared one needs its entries removed.
    if (!this.size.nestedId) this.entries.push(added)
    const key = `dsh-harden:parameters/${++documents}`
    const memoized = memoizeRefs(this.schema, key)
    // Two tools may reuse one `$id` for different schemas; ajv keys compiled schemas by it, and local refs need none.
    const { $id: _id, ...anonymous } = this.schema
    added.schemas.push(anonymous)
    if (memoized === undefined) return ajv.compile(anonymous)
    added.keys.push(key, ...memoized.refs.map((ref) => `${key}${ref}`))
    ajv.addSchema(memoized.schema, key)
    try {
      const validate = ajv.getSchema(key)!
      // Every target compiled now, so a reference ajv cannot compile is a problem of this compile, not of a call.
      for (const ref of memoized.refs)
        if (ajv.getSchema(`${key}${ref}`) === undefined) throw new Error(`cannot resolve ${ref}`)
      memoizing.add(validate)
      return validate
    } catch (error) {
      removeEntries([{ ajv, schemas: [], keys: added.keys }])
      // A reference the copy could not mirror: the plain schema, whose `$ref`s ajv resolves itself, or its own error.
      if (error instanceof RangeError) throw error
      return ajv.compile(anonymous)
    }
  }
}

/** How big a schema is for the compiler: its schema nodes (the root and every nested schema) and any nested `$id`. */
export interface SchemaSize {
  readonly nodes: number
  readonly nestedId: boolean
}

/** One pass on an explicit stack over every schema node of `schema`, each counted as `compile-node` work. */
export function schemaSize(schema: JsonObject, meter?: WorkMeter): SchemaSize {
  let nodes = 0
  let nestedId = false
  const pending: JsonValue[] = [schema]
  const push = (child: JsonValue) => {
    pending.push(child)
  }
  while (pending.length > 0) {
    const node = pending.pop()!
    nodes++
    if (!isJsonObject(node)) continue
    if (nodes > 1 && typeof node.$id === 'string') nestedId = true
    for (const keyword of Object.keys(node)) {
      const shape = KEYWORD_SHAPES.get(keyword)
      if (shape !== undefined) subschemasAt(keyword, shape, node[keyword]!, push)
    }
  }
  meter?.count('compile-node', nodes)
  return { nodes, nestedId }
}

/**
 * A schema with more nodes than the compile budget: it is not compiled (see `COMPILE_NODE_BUDGET`), and the
 * fallback validator checks its arguments.
 */
export class CompileBudgetError extends Error {
  override readonly name = 'CompileBudgetError'
  readonly nodes: number
  readonly bytes: number
  readonly budget: number

  constructor(nodes: number, bytes: number, budget: number) {
    const count = (value: number) => value.toLocaleString('en-US')
    super(
      `the schema has ${count(nodes)} schema nodes (${count(bytes)} bytes of JSON), more than the compile budget of ${count(budget)} nodes`,
    )
    this.nodes = nodes
    this.bytes = bytes
    this.budget = budget
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
        message: `cannot be checked: ${error.message}`,
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
 * Live compiled schemas by schema text, so identical schemas share one compile. Each entry is held only by the
 * validators handed out for it (a contract holds its own): the map keeps a `WeakRef`, and when the validators are
 * collected `released` removes what the compile added to ajv's caches and the map entry. At most `SHARED_CAPACITY`
 * entries: past it the oldest stops being shared (it lives on with its contracts).
 */
export const SHARED_CAPACITY = 2_000
const shared = new Map<string, WeakRef<CompiledSchema>>()
const released = new FinalizationRegistry<{ readonly text: string; readonly entries: EngineEntries[] }>(
  ({ text, entries }) => {
    removeEntries(entries)
    if (shared.get(text)?.deref() === undefined) shared.delete(text)
  },
)

function share(text: string, entry: CompiledSchema): void {
  if (shared.size >= SHARED_CAPACITY) {
    for (const [key, ref] of shared) if (ref.deref() === undefined) shared.delete(key)
    if (shared.size >= SHARED_CAPACITY) shared.delete(shared.keys().next().value as string)
  }
  shared.set(text, new WeakRef(entry))
  released.register(entry, { text, entries: entry.entries })
}

/**
 * Schemas ajv could not compile, so the same schema fails again without a second attempt: the newest ones, at most
 * `FAILURE_CAPACITY` and `FAILURE_TEXT_BUDGET` characters of schema text in all.
 */
export const FAILURE_CAPACITY = 64
export const FAILURE_TEXT_BUDGET = 4_000_000
const failures = new Map<string, unknown>()
let failureText = 0

function rememberFailure(text: string, error: unknown): void {
  failures.set(text, error)
  failureText += text.length
  while (failures.size > FAILURE_CAPACITY || failureText > FAILURE_TEXT_BUDGET) {
    const oldest = failures.keys().next().value as string
    failures.delete(oldest)
    failureText -= oldest.length
  }
}

export interface CompileOptions {
  /** Counts the compile's work: `compile-node` per schema node, `compile-code` per character ajv generates. */
  readonly meter?: WorkMeter | undefined
  /** The most schema nodes to compile; a larger schema throws `CompileBudgetError`. Default: no budget. */
  readonly nodeBudget?: number | undefined
}

/**
 * Compiles (or reuses) the validators for a declared schema. Throws what ajv throws for a schema it cannot compile
 * (remembered: the same schema fails again without a second attempt), and `CompileBudgetError` past `nodeBudget`.
 * The validators stay compiled while the returned function is reachable, and no longer.
 */
export function compileValidator(schema: JsonObject, options: CompileOptions = {}): ArgumentValidator {
  const key = jsonText(schema)
  let entry = shared.get(key)?.deref()
  if (entry === undefined) {
    if (failures.has(key)) throw failures.get(key)
    const size = schemaSize(schema, options.meter)
    const budget = options.nodeBudget
    if (budget !== undefined && size.nodes > budget)
      throw new CompileBudgetError(size.nodes, key.length, budget)
    const declared = typeof schema.$schema === 'string' ? dialectOf(schema.$schema) : undefined
    try {
      entry = new CompiledSchema(schema, declared ?? 'draft-07', size, options.meter)
    } catch (error) {
      rememberFailure(key, error)
      throw error
    }
    share(key, entry)
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
