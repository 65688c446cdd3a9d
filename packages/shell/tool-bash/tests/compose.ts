import * as DshToolBash from '@deepseek-ai/dsh-tool-bash'
import { bashWorkdirBase, type SandboxMode } from '@dsh-harden/escalation'
import { type ApprovalSetting, type ComposedShell, composeShell } from '@dsh-harden/escalation/testing'

/**
 * DSH's real `bash` definition (the rc.8 `apply` of @deepseek-ai/dsh-tool-bash) over a recording executor and
 * approval channel, stock and with the escalation transform. The real sandbox runs in `real-sandbox.test.ts` and in
 * regress.
 */
export function composeBash(effective: SandboxMode, approval: ApprovalSetting): ComposedShell {
  return composeShell({ tool: 'bash', apply: DshToolBash.apply, base: bashWorkdirBase }, effective, approval)
}
