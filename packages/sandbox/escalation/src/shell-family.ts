import { isAbsolute, resolve } from 'node:path'
import { effectHash } from './binding-effect.ts'
import {
  type EscalatingDefinition,
  type EscalationExec,
  type EscalationFamily,
  modeOf,
} from './definition.ts'
import type { DenialBinding } from './tokens.ts'
import { advertisesEscalation } from './transform.ts'

/** The slice of DSH's `ctx.sandboxPolicy` (`@deepseek-ai/dsh-sandbox-policy`, `SandboxPolicyService.resolve`) used here. */
export interface SandboxPolicyView {
  resolve(request?: { session?: unknown }): { mode: unknown; workspaceRoot?: unknown }
}

export interface ShellExecView extends EscalationExec {
  readonly agent?: {
    readonly session: { readonly id: unknown; readonly header?: { readonly cwd?: unknown } }
  }
}

/** Where the family reads DSH's live services (`ctx.get('sandboxPolicy')` in the plugin). */
export type PolicySource = () => SandboxPolicyView | undefined

/**
 * The call's standing policy, resolved exactly as DSH's tool-bash/tool-pwsh `resolveSandboxPolicy` does
 * (`sandboxPolicy.resolve(exec.agent === undefined ? {} : { session: exec.agent.session })`).
 */
export function standingPolicy(policy: PolicySource, exec: ShellExecView) {
  return policy()?.resolve(exec.agent === undefined ? {} : { session: exec.agent.session })
}

/** The fields of a bash/pwsh binding: the normalized command, the resolved workdir and the standing mode. */
function shellBinding(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  exec: ShellExecView,
  policy: PolicySource,
  base: (exec: ShellExecView, root: string | undefined) => string | undefined,
): DenialBinding | undefined {
  const session = exec.agent?.session.id
  const resolved = standingPolicy(policy, exec)
  const mode = modeOf(resolved)
  if (typeof session !== 'string' || mode === undefined || typeof args.command !== 'string') return undefined
  const root = typeof resolved?.workspaceRoot === 'string' ? resolved.workspaceRoot : undefined
  const from = base(exec, root)
  const workdir = typeof args.workdir === 'string' ? args.workdir : undefined
  const dir =
    workdir === undefined
      ? from
      : from !== undefined && !isAbsolute(workdir)
        ? resolve(from, workdir)
        : workdir
  return {
    session,
    tool,
    target: args.command.trim(),
    workdir: dir ?? '',
    mode,
    // run_in_background, timeoutMs and anything else that changes what runs.
    effect: effectHash(args, ['command', 'workdir']),
  }
}

/** A foreground run the sandbox denied (`result.sandbox.denied`, not a runner failure), as DSH's render reads it. */
export function deniedShellValue(value: unknown): boolean {
  const result = value as
    | { kind?: unknown; sandbox?: { denied?: unknown; runnerFailed?: unknown } }
    | undefined
  return (
    result?.kind === 'foreground' && result.sandbox?.denied === true && result.sandbox.runnerFailed !== true
  )
}

export interface ShellFamilyOptions {
  readonly tool: 'bash' | 'pwsh'
  readonly policy: PolicySource
  /** Where a relative workdir resolves from: DSH bash uses the policy's workspace root, pwsh the session cwd. */
  readonly base: (exec: ShellExecView, root: string | undefined) => string | undefined
}

/** The family facts for DSH's `bash` or `pwsh` definition, all read from DSH at call time. */
export function shellFamily(definition: EscalatingDefinition, options: ShellFamilyOptions): EscalationFamily {
  // DSH advertises the fields iff `ctx.shell.sandboxMode !== undefined`: its own "a confining executor is mounted".
  const confined = advertisesEscalation(definition)
  return {
    tool: options.tool,
    subject: 'command',
    effectiveMode: (exec) =>
      confined ? modeOf(standingPolicy(options.policy, exec as ShellExecView)) : undefined,
    binding: (args, exec) =>
      shellBinding(options.tool, args, exec as ShellExecView, options.policy, options.base),
    deniedValue: deniedShellValue,
  }
}

/** DSH tool-bash `resolveWorkdir`: the policy's workspace root, else the session cwd. */
export function bashWorkdirBase(exec: ShellExecView, root: string | undefined): string | undefined {
  const cwd = exec.agent?.session.header?.cwd
  return root ?? (typeof cwd === 'string' ? cwd : undefined)
}

/** DSH tool-pwsh `resolveWorkdir`: the session cwd (pwsh does not read the policy's root). */
export function pwshWorkdirBase(exec: ShellExecView): string | undefined {
  const cwd = exec.agent?.session.header?.cwd
  return typeof cwd === 'string' ? cwd : undefined
}
