import { createGateway } from './create.ts'
import type { GatewayLogger, LazyMcpGateway } from './gateway.ts'
import { GATEWAY_TOOLS, type GatewayTool } from './gateway-tools.ts'
import { type StatusServer, startStatusServer } from './status-server.ts'

/** The slice of a DSH plugin context this plugin uses (cordis `Context` with the `tools` service injected). */
export interface LazyMcpContext {
  readonly tools: { register(definition: DshToolDefinition): () => void }
  effect(execute: () => () => unknown, label?: string): unknown
  readonly logger?:
    | ((name: string) => Partial<Record<'info' | 'warn' | 'error', (message: string) => void>>)
    | undefined
}

/** A DSH `ToolDefinition` (`@deepseek-ai/dsh-tools`), as this plugin builds it. */
export interface DshToolDefinition {
  readonly name: string
  readonly description: string
  readonly parameters: GatewayTool['parameters']
  readonly output: {
    readonly schema: Record<string, never>
    render(args: unknown, value: unknown): { type: 'text'; text: string }[]
  }
  execute(args: unknown, exec: { readonly signal: AbortSignal }): Promise<unknown>
  isConcurrencySafe?(args: unknown): boolean
}

/** Builds the DSH tool definition of one gateway tool, bound to a gateway. */
export function toDshTool(tool: GatewayTool, gateway: LazyMcpGateway): DshToolDefinition {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    output: {
      schema: {},
      render: (_args, value) => [
        { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) },
      ],
    },
    execute: (args, exec) => tool.run(gateway, args, exec.signal),
    // Reading state and caches may overlap with anything; calls that may start a server run alone.
    isConcurrencySafe: (args) =>
      tool.name === 'mcp_servers' ||
      (tool.name === 'mcp_tools' && (args as { refresh?: unknown } | undefined)?.refresh !== true),
  }
}

function contextLogger(ctx: LazyMcpContext): GatewayLogger {
  const logger = typeof ctx.logger === 'function' ? ctx.logger('lazy-mcp') : undefined
  return {
    info: (message) => logger?.info?.(message),
    warn: (message) => logger?.warn?.(message),
    error: (message) => logger?.error?.(message),
  }
}

/** Handles to what one activation created, for hosts and tests that hold the plugin directly. */
export interface LazyMcpActivation {
  readonly gateway: LazyMcpGateway
  readonly status: StatusServer | undefined
}

const activations = new WeakMap<object, LazyMcpActivation>()

/** The gateway (and status server) that {@link apply} created for this context, if any. */
export function activationOf(ctx: object): LazyMcpActivation | undefined {
  return activations.get(ctx)
}

export const name = 'lazy-mcp'
export const inject = ['tools']

/**
 * Activation: validate the configuration (loud, with the exact path), import `mcpServers` sources, register the
 * five gateway tools, start `eager` / `keep-alive` servers in the background without waiting, and start the status
 * server when `statusListen` is set. Nothing else starts. Disposal closes every connection (stdio: the whole
 * process group), stops the status server and waits for cache writes.
 */
export async function apply(ctx: LazyMcpContext, config: unknown): Promise<void> {
  const logger = contextLogger(ctx)
  const { gateway, config: parsed } = await createGateway(config ?? {}, { logger })
  ctx.effect(() => () => gateway.dispose(), 'lazy-mcp.gateway')
  for (const tool of GATEWAY_TOOLS) {
    const definition = toDshTool(tool, gateway)
    ctx.effect(() => ctx.tools.register(definition), `lazy-mcp.tool(${tool.name})`)
  }
  let status: StatusServer | undefined
  if (parsed.statusListen !== undefined) {
    status = await startStatusServer(gateway, {
      listen: parsed.statusListen,
      allowNonLoopback: parsed.statusAllowNonLoopback,
      warn: (line) => logger.warn(line),
    })
    const server = status
    ctx.effect(() => () => server.close(), 'lazy-mcp.status')
    logger.info(`lazy-mcp: status panel at ${status.panelUrl}`)
  }
  activations.set(ctx, { gateway, status })
}

/** The plugin object, for `app.plugin(LazyMcp, config)`. */
export const LazyMcp = { name, inject, apply }
