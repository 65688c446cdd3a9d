import * as DshToolFs from '@deepseek-ai/dsh-tool-fs'
import {
  type EscalatingDefinition,
  escalationTransform,
  fsFamily,
  type SandboxMode,
} from '@dsh-harden/escalation'
import { type ApprovalSetting, recordingServices } from '@dsh-harden/escalation/testing'

/**
 * DSH's real `write` and `edit` definitions (the rc.8 `apply` of @deepseek-ai/dsh-tool-fs, so DSH's own schema check,
 * `FsSandboxController.resolvePolicy` with `validateEscalationArgs` and `approveEscalation` run) over a recording
 * filesystem and approval channel, stock and with the escalation transform. The real `dsh-fs-sandbox` runs in
 * `real-fs.test.ts` and in regress.
 */
export function composeFs(effective: SandboxMode, approval: ApprovalSetting) {
  const services = recordingServices(effective, approval)
  const registered = new Map<string, EscalatingDefinition>()
  const mutation = async (policyStamp: { mode: SandboxMode } | undefined) => {
    services.state.ranUnder = policyStamp?.mode
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
    get: services.get,
  }
  ;(DshToolFs.apply as (ctx: unknown, config: unknown) => void)(ctx, {
    readLimit: 2000,
    readMaxLineLength: 2000,
    readMaxBytes: 50_000,
    readStreamMinSize: 1_000_000,
  })
  const transform = escalationTransform({
    name: 'test',
    source: 'tool-fs',
    settings: { denialBound: false, tokenTtlMs: undefined },
    families: {
      write: (d) => fsFamily(d, 'write', () => services.policy),
      edit: (d) => fsFamily(d, 'edit', () => services.policy),
    },
  })
  const stockOf = (tool: string) => registered.get(tool) as EscalatingDefinition
  const hardenedOf = (tool: string) =>
    transform.transform(stockOf(tool), { source: 'tool-fs' }) ?? stockOf(tool)
  return { stockOf, hardenedOf, registered, run: services.run }
}
