import * as DshToolPwsh from '@deepseek-ai/dsh-tool-pwsh'
import {
  type EscalatingDefinition,
  escalationTransform,
  pwshWorkdirBase,
  type SandboxMode,
  shellFamily,
} from '@dsh-harden/escalation'

/**
 * DSH's real `pwsh` definition (the rc.8 `apply` of @deepseek-ai/dsh-tool-pwsh, so DSH's own schema check,
 * `validateEscalationArgs` and `approveEscalation` run) over a recording executor and approval channel, stock and
 * with the escalation transform. The executor records the mode DSH stamped on the call; it never spawns (PowerShell cannot be installed here). The real
 * sandbox runs in `real-sandbox.test.ts` and in regress.
 */
export type ApprovalSetting = 'allow' | 'reject' | 'never'

export interface Outcome {
  readonly error: string | undefined
  /** The sandbox mode the call ran under, or undefined when nothing ran. */
  readonly ranUnder: SandboxMode | undefined
  /** Approval requests that reached DSH's approval service. */
  readonly approvals: readonly string[]
  /** Whether an answerer (the user) was asked; `never` answers without asking. */
  readonly userAsked: boolean
}

export function composePwsh(effective: SandboxMode, approval: ApprovalSetting) {
  let registered: EscalatingDefinition | undefined
  const state = {
    ranUnder: undefined as SandboxMode | undefined,
    approvals: [] as string[],
    userAsked: false,
  }
  const policy = {
    resolve: (request: { session?: { id: string } } = {}) => ({
      mode: effective,
      workspaceRoot: '/ws',
      ...(request.session ? { sessionId: request.session.id } : {}),
    }),
  }
  const approver = {
    // The real ApprovalService resolves `never` to 'rejected' before any answerer is consulted.
    async request(req: { reason: string }) {
      state.approvals.push(req.reason)
      if (approval === 'never') return 'rejected'
      state.userAsked = true
      return approval === 'allow' ? 'allowed-once' : 'rejected'
    },
  }
  const shell = {
    sandboxMode: 'read-only',
    resolve: (request: unknown) => request,
    async run(request: { sandboxPolicy?: { mode: SandboxMode } }) {
      state.ranUnder = request.sandboxPolicy?.mode
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
  const services: Record<string, unknown> = { sandboxPolicy: policy, approval: approver }
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
    get: (key: string) => services[key],
  }
  ;(DshToolPwsh.apply as (ctx: unknown, config: unknown) => void)(ctx, { enableRunInBackground: false })
  const stock = registered as EscalatingDefinition
  const hardened = escalationTransform({
    name: 'test',
    settings: { denialBound: false, tokenTtlMs: undefined },
    families: { pwsh: (d) => shellFamily(d, { tool: 'pwsh', policy: () => policy, base: pwshWorkdirBase }) },
  }).transform(stock) as EscalatingDefinition

  async function run(definition: EscalatingDefinition, args: Record<string, unknown>): Promise<Outcome> {
    state.ranUnder = undefined
    state.approvals = []
    state.userAsked = false
    const exec = {
      callId: 'call-1',
      signal: new AbortController().signal,
      agent: { session: { id: 'session-1', header: { cwd: '/ws' }, events: [] } },
    }
    let error: string | undefined
    try {
      await (definition.execute as (a: unknown, e: unknown) => Promise<unknown>)(args, exec)
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    return { error, ranUnder: state.ranUnder, approvals: [...state.approvals], userAsked: state.userAsked }
  }
  return {
    stock,
    hardened,
    runStock: (args: Record<string, unknown>) => run(stock, args),
    runHardened: (args: Record<string, unknown>) => run(hardened, args),
  }
}
