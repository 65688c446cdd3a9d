import type { EscalatingDefinition } from '../definition.ts'
import type { SandboxMode } from '../modes.ts'
import type { SandboxPolicyView } from '../shell-family.ts'

/** The user's approval answer: `never` is DSH's policy that rejects without asking anyone. */
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

/** What a recording executor writes: the mode DSH stamped on the call. */
export interface RecordingState {
  ranUnder: SandboxMode | undefined
  approvals: string[]
  userAsked: boolean
}

export interface RecordingServices {
  readonly state: RecordingState
  /** DSH's sandbox-policy service, fixed at one effective mode. */
  readonly policy: SandboxPolicyView
  /** `ctx.get` for DSH's `apply`: `sandboxPolicy` and `approval`. */
  readonly get: (key: string) => unknown
  /** Runs a definition's `execute` on one call and reports what happened (a thrown error is the outcome). */
  readonly run: (definition: EscalatingDefinition, args: Record<string, unknown>) => Promise<Outcome>
}

/**
 * The sandbox-policy and approval services DSH's tools read, recording instead of confining or asking, and a runner
 * that executes one call the way DSH's agent loop does. The tool's executor (shell, fs) writes `state.ranUnder`.
 */
export function recordingServices(effective: SandboxMode, approval: ApprovalSetting): RecordingServices {
  const state: RecordingState = { ranUnder: undefined, approvals: [], userAsked: false }
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
  const services: Record<string, unknown> = { sandboxPolicy: policy, approval: approver }

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
  return { state, policy, get: (key) => services[key], run }
}
