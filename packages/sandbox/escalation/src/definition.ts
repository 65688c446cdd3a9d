import { isSandboxMode, type SandboxMode } from './modes.ts'
import {
  blankJustificationError,
  type DroppedField,
  JUSTIFICATION,
  normalizeEscalation,
  normalizeForPresentation,
  SANDBOX_PERMISSIONS,
} from './normalize.ts'
import type { DenialBinding, DenialTokenStore } from './tokens.ts'
import { ESCALATION_TOKEN, escalationParameters } from './wire-schema.ts'

/** The slice of DSH's tool-execution context (`ToolExecution`, packages/core/tools) this package reads. */
export interface EscalationExec {
  readonly callId?: unknown
  readonly agent?: { readonly session: { readonly id: unknown } } | undefined
}

interface ContentBlock {
  readonly type: string
  readonly text?: string
}

interface ToolResultLike {
  readonly content: readonly ContentBlock[]
  readonly isError?: boolean
}

/** The slice of DSH's `ToolDefinition` the escalation wrapper replaces; everything else passes through. */
export interface EscalatingDefinition {
  readonly name?: unknown
  readonly parameters?: unknown
  readonly execute?: ((args: never, exec: never) => unknown) | undefined
  readonly presentCall?: ((args: never) => unknown) | undefined
  readonly presentResult?: ((args: never, result: never) => unknown) | undefined
  readonly isConcurrencySafe?: ((args: never) => unknown) | undefined
  readonly finalizeContent?: ((exec: never, result: never) => unknown) | undefined
}

/** One tool family's facts, all read from DSH itself by the tool package (`@dsh-harden/tool-bash`, `-tool-fs`, ...). */
export interface EscalationFamily {
  readonly tool: string
  /** DSH's noun for the action: `command` (bash, pwsh) or `operation` (write, edit). */
  readonly subject: 'command' | 'operation'
  /**
   * The call's effective mode as DSH resolves it for this very call (`ctx.sandboxPolicy.resolve({ session })`), or
   * `undefined` when no confining backend is mounted.
   */
  effectiveMode(exec: EscalationExec): SandboxMode | undefined
  /** Denial-bound: what a retry must match, resolved the way DSH resolves the call; `undefined` when unbindable. */
  binding?(args: Readonly<Record<string, unknown>>, exec: EscalationExec): DenialBinding | undefined
  /** Denial-bound: the tool returned a sandbox denial (bash, pwsh: `value.sandbox.denied`). */
  deniedValue?(value: unknown): boolean
  /** Denial-bound: the tool threw a sandbox denial (write, edit: `FS_SANDBOX_DENIED`). */
  deniedError?(error: unknown): boolean
}

/** A removal, reported so the host can log it; the model and the user see the same fact in the tool result. */
export interface EscalationDropEvent {
  readonly tool: string
  readonly callId: unknown
  readonly effectiveMode: SandboxMode | undefined
  readonly dropped: readonly DroppedField[]
  /** The sentence appended to the result, when the removal changed what the call asked for. */
  readonly notice: string | undefined
}

export interface EscalationDefinitionOptions {
  readonly family: EscalationFamily
  /** Denial-bound escalation: a wider mode is honoured only as the retry of a denied call, with its token. */
  readonly tokens?: DenialTokenStore | undefined
  readonly onDropped?: ((event: EscalationDropEvent) => void) | undefined
  readonly onTokenIssued?:
    | ((event: { tool: string; callId: unknown; binding: DenialBinding }) => void)
    | undefined
}

/** Marks a definition this wrapper produced, so a second registration path never wraps it twice. */
export const ESCALATION_WRAPPED = Symbol.for('dsh-harden.escalation.wrapped')

function without(args: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  // fromEntries defines own keys, so a `__proto__` key the model sent stays a key and never becomes a prototype.
  return Object.fromEntries(Object.entries(args).filter(([key]) => !keys.includes(key)))
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function noticeFor(
  family: EscalationFamily,
  dropped: readonly DroppedField[],
  mode: SandboxMode | undefined,
) {
  const permission = dropped.find((d) => d.field === SANDBOX_PERMISSIONS && d.reason !== 'null')
  if (permission === undefined) return undefined
  const requested = JSON.stringify(permission.value)
  if (permission.reason === 'not-wider') {
    return (
      `[sandbox: sandbox_permissions ${requested} was dropped as a no-op: this ${family.subject} already runs ` +
      `under "${mode}", which is at least as wide; no escalation was requested and no approval was asked]`
    )
  }
  return (
    `[sandbox: sandbox_permissions ${requested} was ignored: a wider mode is only honoured as the retry of a ` +
    `${family.subject} the sandbox just denied, carrying the escalation_token that denial returned; this ` +
    `${family.subject} ran in its current "${mode}" mode]`
  )
}

function tokenNotice(family: EscalationFamily, token: string, ttlMs: number): string {
  return (
    `[sandbox: escalation_token ${token} — valid once, for ${Math.round(ttlMs / 1000)} s, for this exact ` +
    `${family.subject} only: to retry it with wider access, repeat it unchanged with sandbox_permissions, ` +
    `justification and this escalation_token]`
  )
}

/** Appends notices to the last text block, so presenters that expect one text block keep working. */
function withNotices(content: readonly ContentBlock[], notices: readonly string[]): ContentBlock[] {
  const text = notices.join('\n')
  const last = content.at(-1)
  if (last?.type === 'text' && typeof last.text === 'string') {
    const joined = last.text.length === 0 || last.text.endsWith('\n') ? last.text : `${last.text}\n`
    return [...content.slice(0, -1), { ...last, text: joined + text }]
  }
  return [...content, { type: 'text', text }]
}

/**
 * DSH's tool definition with escalation placeholders removed before DSH sees the arguments:
 *
 * - `parameters`: both fields also admit `null` (and, denial-bound, `escalation_token` is advertised);
 * - `execute`: `normalizeEscalation` with the effective mode DSH resolves for the call, then DSH's own `execute`
 *   — its schema check, `validateEscalationArgs` and `approveEscalation` — exactly as before;
 * - a removal that changed what the call asked for is appended to the result for the model and the user, and
 *   reported through `onDropped` for the log.
 *
 * A definition that does not advertise the fields (no confining backend) keeps its `parameters`; its `null`s and
 * lone blank justification are still removed (stock DSH crashes on `null` there with a TypeError).
 */
export function withEscalationNormalization<D extends EscalatingDefinition>(
  definition: D,
  options: EscalationDefinitionOptions,
): D {
  if ((definition as Record<symbol, unknown>)[ESCALATION_WRAPPED] === true) return definition
  const { family, tokens } = options
  const execute = definition.execute as ((args: unknown, exec: unknown) => unknown) | undefined
  const finalize = definition.finalizeContent as ((exec: unknown, result: unknown) => unknown) | undefined
  const notices = new WeakMap<object, string[]>()
  const notify = (exec: unknown, notice: string) => {
    if (typeof exec !== 'object' || exec === null) return
    const list = notices.get(exec) ?? []
    list.push(notice)
    notices.set(exec, list)
  }
  const present = <A extends unknown[]>(presenter: ((args: unknown, ...rest: A) => unknown) | undefined) =>
    presenter &&
    ((args: unknown, ...rest: A) => presenter.call(definition, stripForPresentation(args), ...rest))
  const stripForPresentation = (args: unknown) => {
    const normalized = normalizeForPresentation(args)
    return tokens !== undefined && isRecord(normalized) && Object.hasOwn(normalized, ESCALATION_TOKEN)
      ? without(normalized, [ESCALATION_TOKEN])
      : normalized
  }

  const wrapped: Record<string | symbol, unknown> = {
    ...(definition as object),
    [ESCALATION_WRAPPED]: true,
    parameters: escalationParameters(definition.parameters, {
      subject: family.subject,
      denialBound: tokens !== undefined,
    }),
    finalizeContent(exec: unknown, result: ToolResultLike) {
      const own = finalize?.call(definition, exec, result) as readonly ContentBlock[] | undefined
      const pending = typeof exec === 'object' && exec !== null ? notices.get(exec) : undefined
      if (pending === undefined || pending.length === 0) return own
      return withNotices(own ?? result.content, pending)
    },
  }
  if (execute !== undefined) {
    wrapped.execute = async (raw: unknown, exec: EscalationExec) => {
      const mode = family.effectiveMode(exec)
      const normalized = normalizeEscalation(raw, mode)
      let args = normalized.args
      const dropped = [...normalized.dropped]
      if (tokens !== undefined && isRecord(args)) {
        const token = args[ESCALATION_TOKEN]
        args = without(args, [ESCALATION_TOKEN])
        if (args[SANDBOX_PERMISSIONS] !== undefined && mode !== undefined) {
          const binding = family.binding?.(args, exec)
          const verdict = binding === undefined ? undefined : tokens.check(token, binding)
          if (verdict?.ok !== true) {
            for (const field of [SANDBOX_PERMISSIONS, JUSTIFICATION])
              if (Object.hasOwn(args, field))
                dropped.push({ field, value: args[field], reason: 'no-denial-token' })
            args = without(args, [SANDBOX_PERMISSIONS, JUSTIFICATION])
          } else {
            // Judge the request before using the token up, so a malformed retry can be corrected and sent again.
            const guidance = blankJustificationError(args, mode, family.subject)
            if (guidance !== undefined) throw guidance
            tokens.redeem(token, binding as DenialBinding)
          }
        }
      }
      if (isRecord(args)) {
        const guidance = blankJustificationError(args, mode, family.subject)
        if (guidance !== undefined) throw guidance
      }
      if (dropped.length > 0) {
        const notice = noticeFor(family, dropped, mode)
        if (notice !== undefined) notify(exec, notice)
        options.onDropped?.({ tool: family.tool, callId: exec.callId, effectiveMode: mode, dropped, notice })
      }
      const issue = () => {
        const binding = tokens === undefined || !isRecord(args) ? undefined : family.binding?.(args, exec)
        if (tokens === undefined || binding === undefined) return
        const issued = tokens.issue(binding)
        notify(exec, tokenNotice(family, issued.token, issued.ttlMs))
        options.onTokenIssued?.({ tool: family.tool, callId: exec.callId, binding })
      }
      let value: unknown
      try {
        value = await execute.call(definition, args, exec)
      } catch (error) {
        if (family.deniedError?.(error) === true) issue()
        throw error
      }
      if (family.deniedValue?.(value) === true) issue()
      return value
    }
  }
  for (const key of ['presentCall', 'presentResult', 'isConcurrencySafe'] as const) {
    const presenter = definition[key] as ((args: unknown, ...rest: unknown[]) => unknown) | undefined
    if (presenter !== undefined) wrapped[key] = present(presenter)
  }
  return wrapped as unknown as D
}

/** Reads `mode` from a resolved DSH sandbox policy, refusing anything outside DSH's vocabulary. */
export function modeOf(policy: unknown): SandboxMode | undefined {
  const mode = isRecord(policy) ? policy.mode : undefined
  return isSandboxMode(mode) ? mode : undefined
}
