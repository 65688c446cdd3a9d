import { parsePointer } from '../json-pointer.ts'
import { defineOwn } from '../json-value.ts'
import type { ArgumentViolation } from './tool-args-error.ts'

/**
 * The one tolerance beyond decoding: a model that sends an object or array as JSON text, into a slot whose schema
 * wants an object or array. Guided by the validator's own findings, so a slot that admits strings is never touched
 * (a string there raises no type error) and nothing is parsed unless the schema asked for a container there.
 */
function wantsContainer(violation: ArgumentViolation): boolean {
  if (violation.keyword === 'oneOf' || violation.keyword === 'anyOf') return true
  return violation.keyword === 'type' && /\b(object|array)\b/.test(violation.message)
}

function readAt(root: unknown, segments: readonly string[]): unknown {
  let at = root
  for (const segment of segments) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, segment)) return undefined
    at = (at as Record<string, unknown>)[segment]
  }
  return at
}

interface Writes {
  value?: unknown
  readonly children: Map<string, Writes>
}

/**
 * A copy of `root` with every planned write applied; each container on a written path is copied once, the rest
 * shared. One pass for all writes on an explicit stack, so many parsed slots in one wide object cost linear time, not
 * a copy each, and a write thousands of levels down needs no call stack.
 */
function applyWrites(root: unknown, writes: Writes): unknown {
  if (Object.hasOwn(writes, 'value')) return writes.value
  const copyOf = (container: unknown): Record<string, unknown> | unknown[] =>
    Array.isArray(container) ? [...container] : { ...(container as Record<string, unknown>) }
  const result = copyOf(root)
  const pending: [copy: Record<string, unknown> | unknown[], writes: Writes][] = [[result, writes]]
  while (pending.length > 0) {
    const [copy, at] = pending.pop()!
    for (const [key, below] of at.children) {
      const original = (copy as Record<string, unknown>)[key]
      let next: unknown
      if (Object.hasOwn(below, 'value')) next = below.value
      else {
        next = copyOf(original)
        pending.push([next as Record<string, unknown> | unknown[], below])
      }
      if (Array.isArray(copy)) copy[Number(key)] = next
      else defineOwn(copy, key, next)
    }
  }
  return result
}

function parseContainer(text: string): object | undefined {
  const trimmed = text.trimStart()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined
  } catch {
    return undefined
  }
}

/** `args` with every stringified container the violations point at parsed in place; the same object if none. */
export function parseStringifiedContainers(args: unknown, violations: readonly ArgumentViolation[]): unknown {
  const writes: Writes = { children: new Map() }
  let planned = false
  const seen = new Set<string>()
  for (const violation of violations) {
    if (!wantsContainer(violation) || seen.has(violation.pointer)) continue
    seen.add(violation.pointer)
    const segments = parsePointer(violation.pointer)
    if (segments === undefined) continue
    const current = readAt(args, segments)
    const parsed = typeof current === 'string' ? parseContainer(current) : undefined
    if (parsed === undefined) continue
    // A string has no slots below it, so no two planned writes are on one path.
    let at = writes
    for (const segment of segments) {
      let below = at.children.get(segment)
      if (below === undefined) {
        below = { children: new Map() }
        at.children.set(segment, below)
      }
      at = below
    }
    at.value = parsed
    planned = true
  }
  return planned ? applyWrites(args, writes) : args
}
