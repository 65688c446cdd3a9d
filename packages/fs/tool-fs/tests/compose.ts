import * as DshToolFs from '@deepseek-ai/dsh-tool-fs'
import {
  type EscalatingDefinition,
  escalationTransform,
  fsFamily,
  type SandboxMode,
} from '@dsh-harden/escalation'

/**
 * DSH's real `write` and `edit` definitions (the rc.8 `apply` of @deepseek-ai/dsh-tool-fs, so DSH's own schema check,
 * `FsSandboxController.resolvePolicy` with `validateEscalationArgs` and `approveEscalation` run) over a recording
 * filesystem and approval channel, stock and with the escalation transform. The real `dsh-fs-sandbox` runs in
 * `real-fs.test.ts` and in regress.
 */
export type ApprovalSetting = 'allow' | 'reject' | 'never'

export interface Outcome {
  readonly error: string | undefined
  readonly ranUnder: SandboxMode | undefined
  readonly approvals: readonly string[]
  readonly userAsked: boolean
}

export function composeFs(effective: SandboxMode, approval: ApprovalSetting) {
  const registered = new Map<string, EscalatingDefinition>()
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
    async request(req: { reason: string }) {
      state.approvals.push(req.reason)
      if (approval === 'never') return 'rejected'
      state.userAsked = true
      return approval === 'allow' ? 'allowed-once' : 'rejected'
    },
  }
  const mutation = async (policyStamp: { mode: SandboxMode } | undefined) => {
    state.ranUnder = policyStamp?.mode
    return { operation: 'create', before: null, after: 'x', version: { mtimeMs: 1, size: 1 } }
  }
  const fs = {
    sandboxMode: 'read-only',
    resolve: async (path: string) => ({ path: `/ws/${path}`, displayPath: `/ws/${path}` }),
    writeText: (_t: unknown, _c: unknown, _i: unknown, _s: unknown, p: { mode: SandboxMode }) => mutation(p),
    editText: async (_t: unknown, _e: unknown, _i: unknown, _s: unknown, p: { mode: SandboxMode }) => ({
      ...(await mutation(p)),
      before: 'a',
    }),
  }
  const services: Record<string, unknown> = { sandboxPolicy: policy, approval: approver }
  const ctx = {
    fs,
    systemPrompt: { section() {}, context() {} },
    tools: {
      register(definition: EscalatingDefinition) {
        registered.set(definition.name as string, definition)
        return () => {}
      },
    },
    inject() {},
    waterfall: async (_name: string, _target: unknown, _exec: unknown, fallback: () => unknown) => fallback(),
    emit() {},
    get: (key: string) => services[key],
  }
  ;(DshToolFs.apply as (ctx: unknown, config: unknown) => void)(ctx, {
    readLimit: 2000,
    readMaxLineLength: 2000,
    readMaxBytes: 50_000,
    readStreamMinSize: 1_000_000,
  })
  const transform = escalationTransform({
    name: 'test',
    settings: { denialBound: false, tokenTtlMs: undefined },
    families: {
      write: (d) => fsFamily(d, 'write', () => policy),
      edit: (d) => fsFamily(d, 'edit', () => policy),
    },
  })
  const stockOf = (tool: string) => registered.get(tool) as EscalatingDefinition
  const hardenedOf = (tool: string) => transform.transform(stockOf(tool)) ?? stockOf(tool)

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
  return { stockOf, hardenedOf, registered, run }
}
