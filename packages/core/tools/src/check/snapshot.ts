import { types } from 'node:util'
import { toPointer } from '../json/json-pointer.ts'
import { defineOwn, type JsonValue } from '../json/json-value.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../json/limits.ts'
import { describePrimitive, isPlainPrototype, lookupSetter } from '../json/plain-data.ts'
import { reverseFrom } from '../json/stack.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { fastCopy, NOT_FAST } from './fast-copy.ts'
import type { SchemaViolation } from './violation.ts'

/**
 * Reads an untrusted value once and returns a detached plain-JSON copy, or every reason it is not lossless JSON.
 *
 * It reads what `JSON.stringify` reads: an object's own enumerable string-keyed properties and an array's elements.
 * Symbol-keyed and non-enumerable properties are metadata no serializer sends (TypeBox marks every schema node with
 * `Symbol(TypeBox.Kind)` in 0.34 and a non-enumerable `~kind` in 1.x), so they are left out of the copy, as stock DSH's
 * request leaves them out. Each property is read once, as `JSON.stringify` reads it: a getter runs and its value is
 * what gets copied and checked, so a schema that computes a member is sent as stock DSH sends it, and fixed from then
 * on. (Input the fast pass hands to the walk is read a second time there.) It never invokes a proxy trap, recurses at
 * most 32 levels (the fast pass, `fast-copy.ts`; the walk below does not recurse, so depth 10,000 is fine), stops at
 * the size limits, and turns anything a hostile object throws (a getter, an exotic object) into an `unreadable`
 * violation.
 */
export type SnapshotResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly violations: readonly SchemaViolation[] }

type Copy = JsonValue[] | Record<string, JsonValue>

/**
 * A container still to read, with the empty copy its parent already holds: reading it fills that copy in. It is also
 * the path link of its children (its parent and its key there), so a container costs one allocation and a primitive
 * none. `depth` 0 is the holder the root is read into, which is in no path.
 */
class Pending {
  readonly value: object
  readonly parent: Pending | undefined
  readonly key: string | number
  readonly depth: number
  readonly copy: Copy

  constructor(value: object, parent: Pending | undefined, key: string | number, copy: Copy) {
    this.value = value
    this.parent = parent
    this.key = key
    this.depth = parent === undefined ? 0 : parent.depth + 1
    this.copy = copy
  }

  /** See `SnapshotWalk.keptShape`. */
  static readonly keptShape = new Pending([], undefined, 0, [])
}

const MAX_REPORTED = 50
const SCAN_DEPTH = 32

/** The pointer of `at`, or of its member `childKey`. */
function pointerOf(at: Pending, childKey?: string | number): string {
  const keys: (string | number)[] = childKey === undefined || at.depth === 0 ? [] : [childKey]
  for (let link = at; link.depth > 1; link = link.parent!) keys.push(link.key)
  return toPointer(keys.reverse())
}

function placeInto(copy: Copy, key: string | number, value: JsonValue): void {
  // Array copies are allocated at their final length, so an element is placed by index, in any order.
  if (typeof key === 'number') (copy as JsonValue[])[key] = value
  else defineOwn(copy, key, value)
}

/** Marks a property that was reported instead of read. */
const NOT_DATA: unique symbol = Symbol('not data')
/** Marks a key that a getter read earlier deleted: absent, as `JSON.stringify` leaves it out. */
const ABSENT: unique symbol = Symbol('absent')

function describeObject(value: object): string {
  if (value instanceof Date) return 'a Date (send an ISO string instead)'
  if (value instanceof RegExp) return 'a RegExp (use the `pattern` keyword with a string)'
  if (value instanceof Map || value instanceof Set) return 'a Map or Set (use a plain object or array)'
  const constructorName = Object.getPrototypeOf(value)?.constructor?.name
  return typeof constructorName === 'string' && constructorName !== ''
    ? `an instance of ${constructorName}`
    : 'an object with a custom prototype'
}

class SnapshotWalk {
  readonly violations: SchemaViolation[] = []
  private nodes = 0
  private chars = 0
  private stopped = false
  /**
   * The containers on the path to the one being read, for the cycle check. Containers are read depth-first, so
   * reading one at depth d closes every container at depth d or deeper: `open[i]` is the open container at depth i + 1.
   * Scanning `open` is cheaper than a set at the depths schemas have; past `SCAN_DEPTH` a set takes over, so a deep
   * input stays linear.
   */
  private readonly open: object[] = []
  private deepAncestors: Set<object> | undefined = undefined
  private readonly stack: Pending[] = []

  private readonly limits: SizeLimits
  private readonly meter: WorkMeter | undefined

  constructor(limits: SizeLimits, meter: WorkMeter | undefined) {
    this.limits = limits
    this.meter = meter
  }

  /**
   * V8 keeps an object shape only while some object has it, and throws away optimized code built on a shape that
   * died. A walk's objects all die when it returns, so after every full garbage collection the next registrations
   * ran the walk unoptimized (3–4× slower) until V8 optimized it again. One object of each class, kept for the
   * process, keeps their shapes alive.
   */
  static readonly keptShape = new SnapshotWalk(DEFAULT_LIMITS, undefined)

  run(input: unknown): JsonValue | undefined {
    const holder: JsonValue[] = []
    const top = new Pending(holder, undefined, 0, holder)
    this.readMember(top, 0, input)
    while (this.stack.length > 0 && !this.stopped) {
      const pending = this.stack.pop()!
      while (this.open.length >= pending.depth) {
        const closed = this.open.pop()!
        this.deepAncestors?.delete(closed)
      }
      try {
        this.readContainer(pending)
      } catch (error) {
        this.report(
          pointerOf(pending),
          'unreadable',
          `reading this value threw ${errorText(error)}`,
          'pass plain data',
        )
      }
    }
    return holder[0]
  }

  private report(pointer: string, rule: SchemaViolation['rule'], message: string, hint: string): void {
    this.violations.push({ pointer, rule, message, hint })
    if (this.violations.length >= MAX_REPORTED) this.stopped = true
  }

  private stop(pointer: string, rule: 'too-deep' | 'too-large', message: string): void {
    this.report(
      pointer,
      rule,
      message,
      'a tool schema this large is almost certainly generated by mistake; trim it',
    )
    this.stopped = true
  }

  /**
   * One value of `parent.copy` at `key`: a primitive is checked and copied now; a container gets its empty copy in
   * place (so the copy keeps the declared key order) and is read when popped. One node of the size limit either way.
   */
  private readMember(parent: Pending, key: string | number, value: unknown): void {
    this.meter?.count('check-node')
    if (++this.nodes > this.limits.maxNodes) {
      this.stop(
        pointerOf(parent, key),
        'too-large',
        `the schema has more than ${this.limits.maxNodes} values`,
      )
      return
    }
    if (value === null || typeof value === 'boolean') {
      placeInto(parent.copy, key, value)
      return
    }
    if (typeof value === 'string') {
      this.chars += value.length
      if (this.chars > this.limits.maxChars) {
        this.stop(
          pointerOf(parent, key),
          'too-large',
          `the schema's strings exceed ${this.limits.maxChars} characters`,
        )
        return
      }
      placeInto(parent.copy, key, value)
      return
    }
    if (typeof value !== 'object') {
      const problem = describePrimitive(value)
      if (problem === undefined) placeInto(parent.copy, key, value as number)
      else
        this.report(
          pointerOf(parent, key),
          'not-lossless-json',
          `is ${problem}`,
          'use only JSON values: objects, arrays, strings, finite numbers, booleans, null',
        )
      return
    }
    // A proxy's traps can serve JSON.stringify other data than its descriptors showed us, so the very reference
    // returned as valid would not be what was checked; detected without invoking any trap (Array.isArray would).
    if (types.isProxy(value)) {
      this.report(
        pointerOf(parent, key),
        'not-lossless-json',
        'is a Proxy, whose reads may differ from what was checked',
        'pass the plain object behind the proxy',
      )
      return
    }
    const copy: Copy = Array.isArray(value) ? new Array<JsonValue>(value.length) : {}
    placeInto(parent.copy, key, copy)
    this.stack.push(new Pending(value, parent, key, copy))
  }

  private readContainer(pending: Pending): void {
    const { value, depth } = pending
    if (depth > this.limits.maxDepth) {
      this.stop(pointerOf(pending), 'too-deep', `nesting is deeper than ${this.limits.maxDepth} levels`)
      return
    }
    if (this.deepAncestors === undefined ? this.open.includes(value) : this.deepAncestors.has(value)) {
      this.report(
        pointerOf(pending),
        'cycle',
        'refers back to one of its own ancestors',
        'JSON cannot hold a cycle: use `$ref` to a `$defs` entry',
      )
      return
    }
    const isArray = Array.isArray(value)
    if (isArray && value.length > this.limits.maxNodes) {
      this.stop(pointerOf(pending), 'too-large', `an array has more than ${this.limits.maxNodes} slots`)
      return
    }
    if (!isPlainPrototype(Object.getPrototypeOf(value), isArray)) {
      this.report(
        pointerOf(pending),
        'not-lossless-json',
        `is ${describeObject(value)}`,
        'use a plain object literal or array',
      )
      return
    }
    // JSON's view of the container; unlike `Reflect.ownKeys`, `Object.keys` is served from V8's enum cache, which
    // halves the cost of a snapshot.
    const keys = Object.keys(value)
    // Every key becomes at least one node, so a too-wide container fails here, before any of its members is read.
    if (this.nodes + keys.length > this.limits.maxNodes) {
      this.stop(pointerOf(pending), 'too-large', `the schema has more than ${this.limits.maxNodes} values`)
      return
    }
    this.open.push(value)
    if (this.deepAncestors !== undefined) this.deepAncestors.add(value)
    else if (this.open.length > SCAN_DEPTH) this.deepAncestors = new Set(this.open)
    const first = this.stack.length
    if (isArray) this.readArray(pending, value, keys)
    else this.readObject(pending, value, keys)
    // Member containers were pushed in key order; reversed, they are read in key order, as a recursive walk would.
    reverseFrom(this.stack, first)
  }

  /**
   * An own property's value, read once as `JSON.stringify` reads it, or `NOT_DATA` after reporting why it could not
   * be: a getter threw, or it is a setter without a getter, which reads as `undefined` (looked for only then). A key
   * of an object that is gone by the time it is read is `ABSENT`.
   */
  private dataOf(pending: Pending, value: object, key: string | number): unknown {
    let data: unknown
    try {
      data = (value as Record<string | number, unknown>)[key]
    } catch (error) {
      this.report(
        pointerOf(pending, key),
        'unreadable',
        `reading this value threw ${errorText(error)}`,
        'store the value itself rather than a getter',
      )
      return NOT_DATA
    }
    if (data === undefined && lookupSetter.call(value, key) !== undefined) {
      this.report(
        pointerOf(pending, key),
        'not-lossless-json',
        'is a setter without a getter, which reads as undefined',
        'store the value itself',
      )
      return NOT_DATA
    }
    // An array keeps its length, and JSON sends a missing element as null: only an object's key can be absent.
    if (data === undefined && typeof key === 'string' && !Object.hasOwn(value, key)) return ABSENT
    return data
  }

  private readObject(pending: Pending, value: object, keys: readonly string[]): void {
    for (const key of keys) {
      const data = this.dataOf(pending, value, key)
      if (data === ABSENT) continue
      this.chars += key.length
      if (data !== NOT_DATA) this.readMember(pending, key, data)
    }
  }

  private readArray(pending: Pending, array: unknown[], keys: readonly string[]): void {
    // Enumerable keys list the indices in order, then any named keys: as many keys as the length is a dense array with
    // nothing else on it, the common case, which needs no per-key test. JSON sends every index below the length, so
    // an index hidden from the keys (a hole, or a non-enumerable element) is read or reported on the slow path.
    const dense = keys.length === array.length || !this.reportIrregularArray(pending, array, keys)
    for (let index = 0; index < array.length; index++) {
      if (!dense && !Object.hasOwn(array, index)) continue
      const data = this.dataOf(pending, array, index)
      if (data !== NOT_DATA) this.readMember(pending, index, data)
    }
  }

  /**
   * Reports the named keys of an array, and its first hole; true when it has a hole. Bounded by the length check in
   * readContainer, so a sparse array cannot make the search long.
   */
  private reportIrregularArray(pending: Pending, array: unknown[], keys: readonly string[]): boolean {
    for (const key of keys) {
      if (isArrayIndex(key)) continue
      this.report(
        pointerOf(pending, key),
        'not-lossless-json',
        'is a named property on an array, which JSON drops',
        'use an object',
      )
    }
    for (let index = 0; index < array.length; index++) {
      if (!Object.hasOwn(array, index)) {
        this.report(
          pointerOf(pending, index),
          'not-lossless-json',
          'is a hole in a sparse array',
          'fill every slot',
        )
        return true
      }
    }
    return false
  }
}

function isArrayIndex(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key)
}

function errorText(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    return 'an unprintable value'
  }
}

/** See `SnapshotResult`. Plain JSON of ordinary depth takes the fast pass (`fast-copy.ts`); anything else, the walk. */
export function snapshotJson(
  input: unknown,
  limits: SizeLimits = DEFAULT_LIMITS,
  meter?: WorkMeter,
): SnapshotResult {
  const fast = fastCopy(input, limits, meter)
  if (fast !== NOT_FAST) return { ok: true, value: fast }
  return snapshotByWalk(input, limits, meter)
}

/** `snapshotJson` without the fast pass: the walk that reads any input and reports every violation. */
export function snapshotByWalk(input: unknown, limits: SizeLimits, meter?: WorkMeter): SnapshotResult {
  const walk = new SnapshotWalk(limits, meter)
  const value = walk.run(input)
  if (walk.violations.length > 0 || value === undefined) return { ok: false, violations: walk.violations }
  return { ok: true, value }
}
