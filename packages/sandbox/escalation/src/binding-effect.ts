import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { JUSTIFICATION, SANDBOX_PERMISSIONS } from './normalize.ts'
import { ESCALATION_TOKEN } from './wire-schema.ts'

/**
 * Arguments that never change what a call does: the escalation request itself (it differs between the denied call and
 * its retry by design) and the model's own description of the call. Every other argument is bound, including ones a
 * future DSH adds, so a new knob cannot slip through a token unbound.
 */
const NOT_AN_EFFECT = new Set([SANDBOX_PERMISSIONS, JUSTIFICATION, ESCALATION_TOKEN, 'description'])

/** JSON with object keys sorted, so the same arguments always hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** SHA-256 of every argument that changes the call's effect, except the ones bound separately (`boundSeparately`). */
export function effectHash(
  args: Readonly<Record<string, unknown>>,
  boundSeparately: readonly string[],
): string {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(args))
    if (!NOT_AN_EFFECT.has(key) && !boundSeparately.includes(key) && value !== undefined) kept[key] = value
  return createHash('sha256').update(canonicalJson(kept)).digest('hex')
}

/**
 * The canonical path: symlinks resolved (`realpath`) for the longest prefix that exists, the rest appended. A file
 * that `write` is about to create has no realpath yet, but its directory does; a symlink swapped in between the
 * denial and the retry changes the canonical target, so the token no longer matches.
 */
export function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    const parent = dirname(path)
    return parent === path ? path : join(canonicalPath(parent), basename(path))
  }
}
