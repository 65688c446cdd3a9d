import * as DshToolPwsh from '@deepseek-ai/dsh-tool-pwsh'
import { pwshWorkdirBase, type SandboxMode } from '@dsh-harden/escalation'
import { type ApprovalSetting, type ComposedShell, composeShell } from '@dsh-harden/escalation/testing'

/**
 * DSH's real `pwsh` definition (the rc.8 `apply` of @deepseek-ai/dsh-tool-pwsh) over a recording executor and
 * approval channel, stock and with the escalation transform; the executor never spawns (PowerShell cannot be
 * installed here).
 */
export function composePwsh(effective: SandboxMode, approval: ApprovalSetting): ComposedShell {
  return composeShell({ tool: 'pwsh', apply: DshToolPwsh.apply, base: pwshWorkdirBase }, effective, approval)
}
