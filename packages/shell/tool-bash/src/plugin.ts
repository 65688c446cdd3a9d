import type { Context } from '@deepseek-ai/cordis'
import {
  bashWorkdirBase,
  describeDrop,
  type EscalationConfig,
  escalationTransform,
  readEscalationConfig,
  type SandboxPolicyView,
  shellFamily,
} from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolBashEscalationConfig = EscalationConfig

export const name = 'dsh-harden-tool-bash'
export const inject = ['tools']

/**
 * The cordis plugin: DSH's real `bash` tool, registered by `@deepseek-ai/dsh-tool-bash`, with escalation
 * placeholders removed before DSH validates them. Load it before `tool-bash` (with or without the overlay).
 */
export function apply(ctx: Context, config?: ToolBashEscalationConfig): void {
  const settings = readEscalationConfig(name, config)
  const logger = ctx.logger('dsh-harden')
  // Read at call time, as DSH's tool-bash does: the live sandbox-policy service resolves each call's mode.
  const policy = () =>
    (ctx as unknown as { get(key: string): unknown }).get('sandboxPolicy') as SandboxPolicyView
  const transform = escalationTransform({
    name,
    settings,
    families: {
      bash: (definition) => shellFamily(definition, { tool: 'bash', policy, base: bashWorkdirBase }),
    },
    onDropped: (event) => {
      if (event.notice === undefined) logger.debug(describeDrop(event))
      else logger.info(describeDrop(event))
    },
  })
  ctx.effect(() => addDefinitionTransform(ctx, transform), 'dsh-harden: bash escalation fields')
}

export const HardenToolBash = { name, inject, apply }
