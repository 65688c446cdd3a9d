import type { ErrorObject, FuncKeywordDefinition } from 'ajv'
import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { subschemasOf } from '../schema/subschemas.ts'

/**
 * ajv evaluates a `$ref` afresh at every use, so a `$defs` chain whose every level is an `anyOf` of two `$ref`s to
 * the next does 2^depth work on a value that fails it — with or without `allErrors`: a failing union tries every
 * branch. Memoizing the verdict per (reference, value position) for one validation makes that linear.
 *
 * The validator's copy of the declared schema gets every local `$ref` written as the keyword `MEMO_REF`, whose
 * function evaluates the target's compiled validator once per position per call and replays the verdict (and its
 * errors, at most `ERROR_BUDGET`) after that. Schemas whose references this cannot mirror exactly (a nested `$id`,
 * anchors, dynamic or recursive references, `unevaluated*`, which reads annotations across references) keep plain
 * `$ref`s.
 */
export const MEMO_REF = 'x-dsh-harden-memo-ref'
/** Errors kept per memoized verdict and per refusal; a refusal beyond it says "and more". */
export const ERROR_BUDGET = 20

const UNMIRRORED = new Set([
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  'unevaluatedProperties',
  'unevaluatedItems',
])

export interface MemoDocument {
  readonly schema: JsonObject
  /** Every reference the copy names, to compile up front (a compile problem shows when the validator is compiled). */
  readonly refs: readonly string[]
}

/** The validator's copy with memoized references, or `undefined` when plain `$ref`s must stay. */
export function memoizeRefs(schema: JsonObject, key: string): MemoDocument | undefined {
  const refs = new Set<string>()
  const root: JsonObject = {}
  const pending: [source: JsonObject, copy: JsonObject, isRoot: boolean][] = [[schema, root, true]]
  while (pending.length > 0) {
    const [source, copy, isRoot] = pending.pop()!
    for (const keyword of Object.keys(source)) {
      if (UNMIRRORED.has(keyword) || (keyword === '$id' && !isRoot)) return undefined
    }
    const ref = source.$ref
    if (ref !== undefined && (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/'))))
      return undefined
    const nested = new Map<string, JsonValue>()
    for (const { path, schema: child } of subschemasOf(source)) {
      if (!isJsonObject(child)) continue
      const childCopy: JsonObject = {}
      pending.push([child, childCopy, false])
      nested.set(path.join('\u0000'), childCopy)
    }
    for (const [keyword, value] of Object.entries(source)) {
      if (isRoot && keyword === '$id') continue
      // Keywords beside `$ref` stay: ajv applies them in every dialect (its `ignoreKeywordsWithRef` is off).
      if (typeof ref === 'string' && keyword === '$ref') {
        refs.add(ref)
        Object.defineProperty(copy, MEMO_REF, { value: `${key}${ref}`, enumerable: true, writable: true })
        continue
      }
      Object.defineProperty(copy, keyword, {
        value: rebuild(keyword, value, nested),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  if (refs.size === 0) return undefined
  return { schema: root, refs: [...refs] }
}

/** `value` with each nested schema replaced by its copy (the copies are filled in by the walk). */
function rebuild(keyword: string, value: JsonValue, nested: ReadonlyMap<string, JsonValue>): JsonValue {
  const direct = nested.get(keyword)
  if (direct !== undefined) return direct
  if (Array.isArray(value)) {
    if (!value.some((_, index) => nested.has(`${keyword}\u0000${index}`))) return value
    return value.map((item, index) => nested.get(`${keyword}\u0000${index}`) ?? item)
  }
  if (isJsonObject(value)) {
    const names = Object.keys(value)
    if (!names.some((name) => nested.has(`${keyword}\u0000${name}`))) return value
    const map: JsonObject = {}
    for (const name of names)
      Object.defineProperty(map, name, {
        value: nested.get(`${keyword}\u0000${name}`) ?? value[name],
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return map
  }
  return value
}

interface Verdict {
  readonly valid: boolean
  readonly errors: readonly ErrorObject[]
}

type Resolve = (
  uri: string,
) => ((data: unknown, context: object) => boolean) & { errors?: ErrorObject[] | null }

/**
 * The per-call memo, set by `withMemo` around one top-level validation (validation is synchronous). A value position
 * is its container and key (arguments are a tree), so a key costs O(1) however deep the position: never the
 * instance path, whose text grows with depth.
 */
type Memo = Map<unknown, Map<string | number | undefined, Map<string, Verdict>>>
let memo: Memo | undefined
let meter: WorkMeter | undefined

export function withMemo<T>(workMeter: WorkMeter | undefined, run: () => T): T {
  const outer = memo
  const outerMeter = meter
  memo = new Map()
  meter = workMeter
  try {
    return run()
  } finally {
    memo = outer
    meter = outerMeter
  }
}

interface DataContext {
  readonly instancePath: string
  readonly parentData: unknown
  readonly parentDataProperty: string | number
  readonly rootData: unknown
}

/** The `MEMO_REF` keyword for one ajv instance: `resolve` gives that instance's validator for a reference URI. */
export function memoRefKeyword(resolve: Resolve): FuncKeywordDefinition {
  const validate = Object.assign(
    (uri: string, data: unknown, _parent: unknown, context?: DataContext): boolean => {
      const path = context?.instancePath ?? ''
      const positions = memo ?? new Map()
      let byKey = positions.get(context?.parentData)
      if (byKey === undefined) {
        byKey = new Map()
        positions.set(context?.parentData, byKey)
      }
      let byRef = byKey.get(context?.parentDataProperty)
      if (byRef === undefined) {
        byRef = new Map()
        byKey.set(context?.parentDataProperty, byRef)
      }
      let verdict = byRef.get(uri)
      if (verdict === undefined) {
        meter?.count('ref-evaluation')
        const target = resolve(uri)
        const valid = target(data, {
          instancePath: path,
          parentData: context?.parentData,
          parentDataProperty: context?.parentDataProperty,
          rootData: context?.rootData ?? data,
        })
        verdict = { valid, errors: valid ? [] : (target.errors ?? []).slice(0, ERROR_BUDGET + 1) }
        byRef.set(uri, verdict)
      }
      // ajv reads a function keyword's errors from the function itself, right after the call returns.
      validate.errors = verdict.valid ? [] : [...verdict.errors]
      return verdict.valid
    },
    { errors: [] as ErrorObject[] },
  )
  return { keyword: MEMO_REF, schemaType: 'string', errors: true, validate }
}
