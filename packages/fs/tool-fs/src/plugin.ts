import type { Context } from '@deepseek-ai/cordis'
import {
  describeDrop,
  type EscalationConfig,
  escalationTransform,
  fsFamily,
  readEscalationConfig,
  type SandboxPolicyView,
} from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolFsEscalationConfig = EscalationConfig

export const name = 'dsh-harden-tool-fs'
export const inject = ['tools']

/**
 * The cordis plugin: DSH's real `write` and `edit` tools, registered by `@deepseek-ai/dsh-tool-fs`, with escalation
 * placeholders removed before DSH validates them. `read` (no escalation fields) is left alone. Load it before
 * `tool-fs` (with or without the overlay).
 */
export function apply(ctx: Context, config?: ToolFsEscalationConfig): void {
  const settings = readEscalationConfig(name, config)
  const logger = ctx.logger('dsh-harden')
  // Read at call time, as DSH's FsSandboxController does: the live sandbox-policy service resolves each call's mode.
  const policy = () =>
    (ctx as unknown as { get(key: string): unknown }).get('sandboxPolicy') as SandboxPolicyView
  const transform = escalationTransform({
    name,
    settings,
    families: {
      write: (definition) => fsFamily(definition, 'write', policy),
      edit: (definition) => fsFamily(definition, 'edit', policy),
    },
    onDropped: (event) => {
      if (event.notice === undefined) logger.debug(describeDrop(event))
      else logger.info(describeDrop(event))
    },
  })
  ctx.effect(() => addDefinitionTransform(ctx, transform), 'dsh-harden: write/edit escalation fields')
}

export const HardenToolFs = { name, inject, apply }
