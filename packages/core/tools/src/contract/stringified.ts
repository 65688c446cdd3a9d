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

/** A copy of `root` with `value` at `segments`; the containers along the path are copied, the rest shared. */
function writeAt(root: unknown, segments: readonly string[], value: unknown): unknown {
  if (segments.length === 0) return value
  const [head, ...rest] = segments as [string, ...string[]]
  const container = root as Record<string, unknown> | unknown[]
  const copy: Record<string, unknown> | unknown[] = Array.isArray(container)
    ? [...container]
    : { ...container }
  const next = writeAt((container as Record<string, unknown>)[head], rest, value)
  if (Array.isArray(copy)) copy[Number(head)] = next
  else defineOwn(copy, head, next)
  return copy
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
  let result = args
  const seen = new Set<string>()
  for (const violation of violations) {
    if (!wantsContainer(violation) || seen.has(violation.pointer)) continue
    seen.add(violation.pointer)
    const segments = parsePointer(violation.pointer)
    if (segments === undefined) continue
    const current = readAt(result, segments)
    const parsed = typeof current === 'string' ? parseContainer(current) : undefined
    if (parsed !== undefined) result = writeAt(result, segments, parsed)
  }
  return result
}
