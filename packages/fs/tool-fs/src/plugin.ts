import type { Context } from '@deepseek-ai/cordis'
import { type EscalationConfig, escalationPlugin, fsFamily } from '@dsh-harden/escalation'
import { addDefinitionTransform } from '@dsh-harden/overlay'

export type ToolFsEscalationConfig = EscalationConfig

/**
 * The cordis plugin: DSH's real `write` and `edit` tools, registered by `@deepseek-ai/dsh-tool-fs`, with escalation
 * placeholders removed before DSH validates them. `read` (no escalation fields) is left alone. Row order does not
 * matter, with or without the overlay: a tool registered before this plugin started is changed in place
 * (`addDefinitionTransform`).
 */
export const HardenToolFs = escalationPlugin<Context>({
  name: 'dsh-harden-tool-fs',
  tools: 'write/edit',
  source: 'tool-fs',
  families: (policy) => ({
    write: (definition) => fsFamily(definition, 'write', policy),
    edit: (definition) => fsFamily(definition, 'edit', policy),
  }),
  addDefinitionTransform,
})

export const { name, inject, apply } = HardenToolFs
