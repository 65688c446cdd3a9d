import { types } from 'node:util'
import { defineOwn, inheritsEnumerableKeys, type JsonValue } from '../json/json-value.ts'
import type { SizeLimits } from '../json/limits.ts'
import { describePrimitive, isPlainPrototype } from '../json/plain-data.ts'
import type { WorkMeter } from '../json/work-meter.ts'

/** What the fast pass hands back for an input it does not fully accept. */
export const NOT_FAST: unique symbol = Symbol('not fast')

/** Containers deeper than this go to the walk, so the recursion stays a few kilobytes of stack. */
const FAST_DEPTH = 32

/**
 * The snapshot of plain JSON within the limits, at most `FAST_DEPTH` containers deep, in one recursive pass. That is
 * nearly every real schema, at about half the cost of the walk (`snapshot.ts`), which keeps a work item, a path link
 * and a cycle set to read inputs of any depth and to report every violation. Anything this pass does not fully
 * accept (a value JSON cannot hold, a proxy, a cycle, a limit, a getter that throws, a stack too short) comes back
 * as `NOT_FAST`, and the walk reads the input from the start. So the pass decides nothing the walk would decide
 * otherwise, and the walk stays the one place that words a violation. Like the walk, it reads each property once, as
 * `JSON.stringify` does (a getter runs, and its value is what is copied; a key a getter deleted first is absent); it
 * never invokes a proxy trap.
 */
export function fastCopy(
  input: unknown,
  limits: SizeLimits,
  meter: WorkMeter | undefined,
): JsonValue | typeof NOT_FAST {
  try {
    const pass = new FastCopy(limits, meter)
    const copied = pass.copy(input)
    // A getter that gave `Object.prototype` an enumerable key midway had it copied as an own key of the objects after
    // it: the walk, which reads own keys only, takes over.
    return pass.inheritsKeys || !inheritsEnumerableKeys() ? copied : NOT_FAST
  } catch {
    // Called with little stack left, the recursion can overflow: the walk, which does not recurse, takes over.
    return NOT_FAST
  }
}

class FastCopy {
  private nodes = 0
  private chars = 0
  private readonly open: object[] = []
  private readonly limits: SizeLimits
  private readonly depthLimit: number
  private readonly meter: WorkMeter | undefined
  /** Whether `for…in` over a plain object also lists inherited keys (see `inheritsEnumerableKeys`). */
  readonly inheritsKeys = inheritsEnumerableKeys()

  constructor(limits: SizeLimits, meter: WorkMeter | undefined) {
    this.limits = limits
    this.depthLimit = Math.min(FAST_DEPTH, limits.maxDepth)
    this.meter = meter
  }

  /** See `SnapshotWalk.keptShape` (`snapshot.ts`). */
  static readonly keptShape = new FastCopy({ maxDepth: 1, maxNodes: 1, maxChars: 1 }, undefined)

  copy(value: unknown): JsonValue | typeof NOT_FAST {
    this.meter?.count('check-node')
    if (++this.nodes > this.limits.maxNodes) return NOT_FAST
    if (value === null || typeof value === 'boolean') return value
    if (typeof value === 'string') {
      this.chars += value.length
      return this.chars > this.limits.maxChars ? NOT_FAST : value
    }
    if (typeof value === 'number') return describePrimitive(value) === undefined ? value : NOT_FAST
    if (typeof value !== 'object' || types.isProxy(value)) return NOT_FAST
    if (this.open.length >= this.depthLimit || this.open.includes(value)) return NOT_FAST
    const isArray = Array.isArray(value)
    if (isArray && value.length > this.limits.maxNodes) return NOT_FAST
    if (!isPlainPrototype(Object.getPrototypeOf(value), isArray)) return NOT_FAST
    this.open.push(value)
    const copied = isArray ? this.copyArray(value) : this.copyObject(value)
    this.open.pop()
    return copied
  }

  private copyObject(value: object): JsonValue | typeof NOT_FAST {
    const copy: Record<string, JsonValue> = {}
    // `for…in` reads V8's enum cache where `Object.keys` would allocate a key array per object. Like the walk, it
    // skips a key a getter deleted before it was reached.
    for (const key in value) {
      if (this.inheritsKeys && !Object.hasOwn(value, key)) continue
      // Keys count toward the limit as in the walk; past it the walk decides whether (and where) to report.
      this.chars += key.length
      if (this.chars > this.limits.maxChars) return NOT_FAST
      // `undefined` is not JSON, and is also what a setter-only accessor reads as: the walk tells which.
      const member = (value as Record<string, unknown>)[key]
      if (member === undefined) return NOT_FAST
      const copied = this.copy(member)
      if (copied === NOT_FAST) return NOT_FAST
      defineOwn(copy, key, copied)
    }
    return copy
  }

  private copyArray(array: unknown[]): JsonValue | typeof NOT_FAST {
    // As many enumerable keys as the length: no hole, no hidden element, no named property.
    if (Object.keys(array).length !== array.length) return NOT_FAST
    const copy = new Array<JsonValue>(array.length)
    for (let index = 0; index < array.length; index++) {
      const member = array[index]
      if (member === undefined) return NOT_FAST
      const copied = this.copy(member)
      if (copied === NOT_FAST) return NOT_FAST
      copy[index] = copied
    }
    return copy
  }
}
