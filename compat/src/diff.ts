import { toPointer } from '@dsh-harden/tools'

/** One place where two JSON values differ, as a JSON pointer into the first and what happened there. */
export interface JsonDifference {
  readonly pointer: string
  readonly kind: 'added' | 'removed' | 'changed'
  /** The value on the right (`added`, `changed`) or the left (`removed`), as compact JSON. */
  readonly value: string
}

export interface DiffOptions {
  /** Stop after this many differences (the report shows the first few). Default 20. */
  readonly limit?: number
  /** Treat two strings as equal when this says so (the Gemini SDK upper-cases `type` names). */
  readonly sameString?: (left: string, right: string, path: readonly (string | number)[]) => boolean
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/**
 * The differences between two JSON values, found in one walk on an explicit stack (schemas can be deep). Object key
 * order is ignored; array order is not.
 */
export function jsonDifferences(left: unknown, right: unknown, options: DiffOptions = {}): JsonDifference[] {
  const limit = options.limit ?? 20
  const found: JsonDifference[] = []
  const stack: { left: unknown; right: unknown; path: (string | number)[] }[] = [{ left, right, path: [] }]
  while (stack.length > 0 && found.length < limit) {
    const { left: a, right: b, path } = stack.pop()!
    // `===`, not `Object.is`: -0 and 0 are the same JSON number.
    if (a === b) continue
    if (typeof a === 'string' && typeof b === 'string') {
      if (a !== b && !options.sameString?.(a, b, path))
        found.push({ pointer: toPointer(path), kind: 'changed', value: show(b) })
      continue
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const length = Math.max(a.length, b.length)
      for (let index = length - 1; index >= 0; index--) {
        if (index >= a.length)
          found.push({ pointer: toPointer([...path, index]), kind: 'added', value: show(b[index]) })
        else if (index >= b.length)
          found.push({ pointer: toPointer([...path, index]), kind: 'removed', value: show(a[index]) })
        else stack.push({ left: a[index], right: b[index], path: [...path, index] })
      }
      continue
    }
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a).sort().reverse()) {
        if (!Object.hasOwn(b, key))
          found.push({ pointer: toPointer([...path, key]), kind: 'removed', value: show(a[key]) })
        else stack.push({ left: a[key], right: b[key], path: [...path, key] })
      }
      for (const key of Object.keys(b).sort())
        if (!Object.hasOwn(a, key))
          found.push({ pointer: toPointer([...path, key]), kind: 'added', value: show(b[key]) })
      continue
    }
    found.push({ pointer: toPointer(path), kind: 'changed', value: show(b) })
  }
  return found.slice(0, limit)
}

/** `true` when two JSON values are equal (key order ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  return jsonDifferences(left, right, { limit: 1 }).length === 0
}
