import type { EscalatingDefinition } from '../definition.ts'
import type { SandboxMode } from '../modes.ts'
import { type ShellFamilyOptions, shellFamily } from '../shell-family.ts'
import { escalationTransform } from '../transform.ts'
import { type ApprovalSetting, type Outcome, recordingServices } from './recording.ts'

export interface DshShellTool {
  readonly tool: ShellFamilyOptions['tool']
  /** The rc.8 `apply` of `@deepseek-ai/dsh-tool-bash` or `-tool-pwsh`. */
  readonly apply: unknown
  readonly base: ShellFamilyOptions['base']
}

export interface ComposedShell {
  readonly stock: EscalatingDefinition
  readonly hardened: EscalatingDefinition
  readonly runStock: (args: Record<string, unknown>) => Promise<Outcome>
  readonly runHardened: (args: Record<string, unknown>) => Promise<Outcome>
}

/**
 * DSH's real `bash` or `pwsh` definition (DSH's own `apply`, so its schema check, `validateEscalationArgs` and
 * `approveEscalation` run) over a recording executor and approval channel, stock and with the escalation
 * transform. The executor records the mode DSH stamped on the call; it never spawns.
 */
export function composeShell(
  dsh: DshShellTool,
  effective: SandboxMode,
  approval: ApprovalSetting,
): ComposedShell {
  const services = recordingServices(effective, approval)
  let registered: EscalatingDefinition | undefined
  const shell = {
    sandboxMode: 'read-only',
    resolve: (request: unknown) => request,
    async run(request: { sandboxPolicy?: { mode: SandboxMode } }) {
      services.state.ranUnder = request.sandboxPolicy?.mode
      const stream = { text: '', truncated: false }
      return {
        exitCode: 0,
        signal: null,
        timedOut: false,
        aborted: false,
        timeoutMs: 1000,
        stdout: { text: 'ok', truncated: false },
        stderr: stream,
        sandbox: { mode: request.sandboxPolicy?.mode, denied: false },
      }
    },
  }
  const ctx = {
    shell,
    shellEnv: { collect: () => ({}) },
    systemPrompt: { section() {}, context() {} },
    tools: {
      register(definition: EscalatingDefinition) {
        registered = definition
        return () => {}
      },
    },
    get: services.get,
  }
  ;(dsh.apply as (ctx: unknown, config: unknown) => void)(ctx, { enableRunInBackground: false })
  const stock = registered as EscalatingDefinition
  const source = `tool-${dsh.tool}`
  const hardened = escalationTransform({
    name: 'test',
    source,
    settings: { denialBound: false, tokenTtlMs: undefined },
    families: {
      [dsh.tool]: (d) => shellFamily(d, { tool: dsh.tool, policy: () => services.policy, base: dsh.base }),
    },
  }).transform(stock, { source }) as EscalatingDefinition
  return {
    stock,
    hardened,
    runStock: (args) => services.run(stock, args),
    runHardened: (args) => services.run(hardened, args),
  }
}
