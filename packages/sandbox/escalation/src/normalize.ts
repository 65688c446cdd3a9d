import { isNoWider, isStrictlyWider, type SandboxMode } from './modes.ts'

/** The two fields DSH's bash, pwsh, write and edit tools advertise under a confining backend. */
export const SANDBOX_PERMISSIONS = 'sandbox_permissions'
export const JUSTIFICATION = 'justification'

/** Why a field was removed. Every reason removes something; none adds or changes a value. */
export type DroppedReason =
  | 'null' // the route's way of saying "not provided"
  | 'blank-justification' // an empty or whitespace justification with no sandbox_permissions
  | 'not-wider' // sandbox_permissions equal to or narrower than the call's effective mode (a no-op)
  | 'no-denial-token' // denial-bound mode: an escalation that is not the retry of a denied call

export interface DroppedField {
  readonly field: string
  readonly value: unknown
  readonly reason: DroppedReason
}

export interface EscalationNormalization {
  /** The arguments to hand to DSH: the very same object when nothing was removed. */
  readonly args: Readonly<Record<string, unknown>>
  readonly dropped: readonly DroppedField[]
  /**
   * The call's effective mode when a `sandbox_permissions` equal to or narrower than it was dropped: the call runs in
   * this mode, with no approval, exactly as if the fields had been omitted.
   */
  readonly noOpMode: SandboxMode | undefined
}

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length === 0
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Removes the placeholders a model route materializes for the escalation fields (#1149), and nothing else, before
 * DSH's own `validateEscalationArgs` and `approveEscalation` run:
 *
 * - `null` in either field → not provided;
 * - an empty or whitespace `justification` with no `sandbox_permissions` → not provided;
 * - a `sandbox_permissions` equal to or narrower than `effectiveMode` (with any justification) → both removed, as a
 *   no-op; the caller records it.
 *
 * Everything else is returned unchanged, so a strictly wider request keeps every DSH check. `effectiveMode` is
 * `undefined` when no confining backend is mounted: then only `null`s and a lone blank justification are removed.
 * Never adds a key, never changes a value: the result's fields are a subset of the input's.
 */
export function normalizeEscalation(
  args: unknown,
  effectiveMode: SandboxMode | undefined,
): EscalationNormalization {
  if (!isRecord(args)) return { args: args as Record<string, unknown>, dropped: [], noOpMode: undefined }
  const dropped: DroppedField[] = []
  const has = (key: string) => Object.hasOwn(args, key)
  const drop = new Map<string, DroppedReason>()
  for (const key of [SANDBOX_PERMISSIONS, JUSTIFICATION])
    if (has(key) && args[key] === null) drop.set(key, 'null')
  const requested = drop.has(SANDBOX_PERMISSIONS) ? undefined : args[SANDBOX_PERMISSIONS]
  const justification = drop.has(JUSTIFICATION) ? undefined : args[JUSTIFICATION]
  let noOpMode: SandboxMode | undefined
  if (requested === undefined) {
    if (isBlank(justification)) drop.set(JUSTIFICATION, 'blank-justification')
  } else if (effectiveMode !== undefined && isNoWider(requested, effectiveMode)) {
    noOpMode = effectiveMode
    drop.set(SANDBOX_PERMISSIONS, 'not-wider')
    if (has(JUSTIFICATION) && !drop.has(JUSTIFICATION)) drop.set(JUSTIFICATION, 'not-wider')
  }
  if (drop.size === 0) return { args, dropped, noOpMode }
  for (const [key, reason] of drop) dropped.push({ field: key, value: args[key], reason })
  // fromEntries defines own keys, so a `__proto__` key the model sent stays a key and never becomes a prototype.
  const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !drop.has(key)))
  return { args: kept, dropped, noOpMode }
}

/**
 * Presenters have no execution context, so no effective mode: they get only the mode-independent removals (`null`s
 * and a lone blank justification), so DSH's presenters see the call they would have seen had the route omitted them.
 */
export function normalizeForPresentation(args: unknown): unknown {
  return normalizeEscalation(args, undefined).args
}

/**
 * The model-facing error for a strictly wider request whose justification is missing, `null` or blank — the shape a
 * route that fills every field produces when it picks a wider enum value. DSH rejects these calls too; this text
 * also says how to not ask. Returns `undefined` for every other call.
 */
export function blankJustificationError(
  args: Readonly<Record<string, unknown>>,
  effectiveMode: SandboxMode | undefined,
  subject: string,
): Error | undefined {
  const requested = args[SANDBOX_PERMISSIONS]
  if (requested === undefined || requested === null) return undefined
  const justification = args[JUSTIFICATION]
  if (typeof justification === 'string' && !isBlank(justification)) return undefined
  if (justification !== undefined && justification !== null && typeof justification !== 'string')
    return undefined
  // Without a confining backend there is nothing to widen; DSH's own "not available in this composition" applies.
  if (effectiveMode === undefined || !isStrictlyWider(requested, effectiveMode)) return undefined
  return new Error(
    `invalid escalation: sandbox_permissions "${String(requested)}" asks for wider access than this call's current ` +
      `"${effectiveMode}" mode, so it needs a ` +
      `non-empty one-sentence justification and user approval. Unless you are retrying a ${subject} the sandbox just ` +
      `denied, omit sandbox_permissions and justification (or send null for both) and the ${subject} runs in its ` +
      'current mode.',
  )
}
