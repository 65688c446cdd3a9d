import type { Context } from '@deepseek-ai/cordis'
import {
  describeDrop,
  type EscalationConfig,
  escalationTransform,
  pwshWorkdirBase,
  readEscalationConfig,
  type SandboxPolicyView,
  shellFamily,
} from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolPwshEscalationConfig = EscalationConfig

export const name = 'dsh-harden-tool-pwsh'
export const inject = ['tools']

/**
 * The cordis plugin: DSH's real `pwsh` tool, registered by `@deepseek-ai/dsh-tool-pwsh`, with escalation
 * placeholders removed before DSH validates them. Load it before `tool-pwsh` (with or without the overlay).
 */
export function apply(ctx: Context, config?: ToolPwshEscalationConfig): void {
  const settings = readEscalationConfig(name, config)
  const logger = ctx.logger('dsh-harden')
  // Read at call time, as DSH's tool-pwsh does: the live sandbox-policy service resolves each call's mode.
  const policy = () =>
    (ctx as unknown as { get(key: string): unknown }).get('sandboxPolicy') as SandboxPolicyView
  const transform = escalationTransform({
    name,
    settings,
    families: {
      pwsh: (definition) => shellFamily(definition, { tool: 'pwsh', policy, base: pwshWorkdirBase }),
    },
    onDropped: (event) => {
      if (event.notice === undefined) logger.debug(describeDrop(event))
      else logger.info(describeDrop(event))
    },
  })
  ctx.effect(() => addDefinitionTransform(ctx, transform), 'dsh-harden: pwsh escalation fields')
}

export const HardenToolPwsh = { name, inject, apply }
