import type { CordisPlugin } from './dsh-session.ts'

/** A raw `ctx.tools.register()` call of the kind third-party plugins make, with whatever `parameters` they declare. */
export interface ToolsContext {
  tools: { register(definition: unknown): () => void }
}

export function rawTool(name: string, parameters: unknown): Record<string, unknown> {
  const definition: Record<string, unknown> = {
    name,
    description: `${name} (regression fixture)`,
    output: {
      schema: {},
      render: (_args: unknown, value: unknown) => [{ type: 'text', text: JSON.stringify(value) }],
    },
    execute: async (args: unknown) => ({ received: args }),
  }
  // "parameters missing" must mean the key is absent, as in the plugins that forgot it.
  if (parameters !== undefined) definition.parameters = parameters
  return definition
}

/** A cordis plugin named like the published plugin that registered the tool, so errors can name it. */
export function toolPlugin(pluginName: string, ...definitions: Record<string, unknown>[]): CordisPlugin {
  return {
    name: pluginName,
    inject: ['tools'],
    apply(ctx: ToolsContext) {
      for (const definition of definitions) ctx.tools.register(definition)
    },
  } as CordisPlugin
}
