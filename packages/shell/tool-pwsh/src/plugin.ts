import type { Context } from '@deepseek-ai/cordis'
import { type EscalationConfig, escalationPlugin, pwshWorkdirBase, shellFamily } from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolPwshEscalationConfig = EscalationConfig

/**
 * The cordis plugin: DSH's real `pwsh` tool, registered by `@deepseek-ai/dsh-tool-pwsh`, with escalation
 * placeholders removed before DSH validates them. Row order does not matter, with or without the overlay: a tool
 * registered before this plugin started is changed in place (`addDefinitionTransform`).
 */
export const HardenToolPwsh = escalationPlugin<Context>({
  name: 'dsh-harden-tool-pwsh',
  tools: 'pwsh',
  source: 'tool-pwsh',
  families: (policy) => ({
    pwsh: (definition) => shellFamily(definition, { tool: 'pwsh', policy, base: pwshWorkdirBase }),
  }),
  addDefinitionTransform,
})

export const { name, inject, apply } = HardenToolPwsh
