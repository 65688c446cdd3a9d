import { isJsonObject, type JsonValue } from '../json/json-value.ts'

/**
 * How much inlining `$ref`s may add to a tool's wire, in characters of its JSON text (what `JSON.stringify` gives, as
 * DSH serializes a request): at most 3× the declared size or 8 KiB, whichever is more, and never more than 512 KiB.
 * A definition used at n places costs n copies when inlined, so a route that must inline pays that growth; past the
 * budget the tool is withheld on that route instead, with its size in the notice (`Projection.withheld`). The bound
 * keeps request building far from V8's string limit (2^29 characters) for any number of tools and ends the walk as
 * soon as it is crossed, so no oversized wire is ever built.
 */
export const INLINE_GROWTH_FACTOR = 3
export const INLINE_GROWTH_FLOOR = 8 * 1024
export const INLINE_GROWTH_CAP = 512 * 1024

/** The most characters inlining may add to a declared schema of `declaredBytes` characters. */
export function inlineAllowance(declaredBytes: number): number {
  return Math.min(Math.max(INLINE_GROWTH_FACTOR * declaredBytes, INLINE_GROWTH_FLOOR), INLINE_GROWTH_CAP)
}

/** Thrown inside a projection the moment its inlining crosses the allowance; `projectParameters` withholds the tool. */
export class InlineBudgetExceeded extends Error {
  readonly declaredBytes: number
  readonly allowance: number
  constructor(declaredBytes: number, allowance: number) {
    super(`inlining would add more than ${allowance} characters to a ${declaredBytes}-character schema`)
    this.declaredBytes = declaredBytes
    this.allowance = allowance
  }
}

/**
 * The JSON text length of every object and array of `document`, in one post-order pass on an explicit stack (shared
 * subtrees are measured once). `JSON.stringify(node).length` for each node, without building any text but that of
 * scalars.
 */
export function jsonSizes(document: JsonValue): WeakMap<object, number> {
  const sizes = new WeakMap<object, number>()
  const entered = new Set<object>()
  const stack: object[] = isJsonObject(document) || Array.isArray(document) ? [document] : []
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!
    if (sizes.has(node)) {
      stack.pop()
      continue
    }
    const children: JsonValue[] = Array.isArray(node) ? node : Object.values(node)
    if (!entered.has(node)) {
      entered.add(node)
      for (const child of children)
        if (typeof child === 'object' && child !== null && !sizes.has(child)) stack.push(child)
      continue
    }
    stack.pop()
    let size = 2 + Math.max(0, children.length - 1)
    if (!Array.isArray(node)) for (const key of Object.keys(node)) size += JSON.stringify(key).length + 1
    for (const child of children) size += sizeOf(sizes, child)
    sizes.set(node, size)
  }
  return sizes
}

/** The JSON text length of `value`, from `sizes` for a container (`jsonSizes` of a document holding it). */
export function sizeOf(sizes: WeakMap<object, number>, value: JsonValue): number {
  if (typeof value === 'object' && value !== null) return sizes.get(value) ?? JSON.stringify(value).length
  return JSON.stringify(value).length
}

/** The notice of a tool withheld on a route: its size, the budget and what to do. */
export function withheldNotice(
  profile: string,
  declaredBytes: number,
  wireBytes: number | undefined,
): string {
  const allowance = inlineAllowance(declaredBytes)
  const size = wireBytes === undefined ? `more than ${declaredBytes + allowance}` : `${wireBytes}`
  return (
    `withheld on the ${profile} route: the route needs its $refs inlined, which makes the ${declaredBytes}-character ` +
    `schema ${size} characters, past the inlining budget (at most ${allowance} characters added: 3× the declared ` +
    `size or 8 KiB, whichever is more, and never more than 512 KiB); define each shared schema once without a ` +
    `reference cycle, or use it at fewer places`
  )
}
