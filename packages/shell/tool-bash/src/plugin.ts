import type { Context } from '@deepseek-ai/cordis'
import { bashWorkdirBase, type EscalationConfig, escalationPlugin, shellFamily } from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolBashEscalationConfig = EscalationConfig

/**
 * The cordis plugin: DSH's real `bash` tool, registered by `@deepseek-ai/dsh-tool-bash`, with escalation
 * placeholders removed before DSH validates them. Row order does not matter, with or without the overlay: a tool
 * registered before this plugin started is changed in place (`addDefinitionTransform`).
 */
export const HardenToolBash = escalationPlugin<Context>({
  name: 'dsh-harden-tool-bash',
  tools: 'bash',
  source: 'tool-bash',
  families: (policy) => ({
    bash: (definition) => shellFamily(definition, { tool: 'bash', policy, base: bashWorkdirBase }),
  }),
  addDefinitionTransform,
})

export const { name, inject, apply } = HardenToolBash
