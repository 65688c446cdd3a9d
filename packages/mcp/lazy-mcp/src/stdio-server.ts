import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { closestName, isPlainObject, LazyMcpConfigError, TOP_KEYS } from './config.ts'
import { createGateway } from './create.ts'
import type { GatewayLogger, LazyMcpGateway } from './gateway.ts'
import { GATEWAY_TOOLS } from './gateway-tools.ts'
import { type StatusServer, startStatusServer } from './status-server.ts'
import { BoundedStdioServerTransport } from './stdio-server-transport.ts'

/**
 * Reads a `--config` file: the native configuration, or a standard `mcpServers` file (Claude Code, Cursor,
 * `.mcp.json`, Pi) whose other keys are ignored. Broken JSON is an error naming the file.
 */
export async function readGatewayConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new LazyMcpConfigError(file, `cannot be read: ${(error as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new LazyMcpConfigError(file, `is not valid JSON (${(error as Error).message})`)
  }
  if (!isPlainObject(parsed)) throw new LazyMcpConfigError(file, 'must hold a JSON object')
  const native = Object.keys(parsed).every((key) => TOP_KEYS.has(key))
  if (native) return { ...parsed }
  if (parsed.mcpServers !== undefined) return { mcpServers: parsed.mcpServers }
  const unknown = Object.keys(parsed).find((key) => !TOP_KEYS.has(key))!
  const guess = closestName(unknown, [...TOP_KEYS])
  throw new LazyMcpConfigError(
    file,
    `is neither a lazy-mcp configuration nor a file with \`mcpServers\`: unknown key ${JSON.stringify(unknown)}${guess === undefined ? '' : `; did you mean \`${guess}\`?`}`,
  )
}

export interface StdioGatewayOptions {
  /** Path of the configuration file; relative paths inside it resolve against its directory. */
  readonly configFile: string
  readonly input?: Readable | undefined
  readonly output?: Writable | undefined
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Where diagnostics go (never stdout: it carries the protocol). */
  readonly logger?: GatewayLogger | undefined
  /** Overrides the file's `statusListen`. */
  readonly statusListen?: string | undefined
}

export interface StdioGateway {
  readonly gateway: LazyMcpGateway
  readonly status: StatusServer | undefined
  /** Resolves after the client disconnected and every server was released. */
  readonly closed: Promise<void>
  close(): Promise<void>
}

/**
 * Serves the five gateway tools as a standalone MCP server over stdio, so Claude Code, Cursor or any MCP client
 * gets lazy start, idle release, the metadata cache and delivery categories in front of its servers.
 */
export async function serveGatewayOverStdio(options: StdioGatewayOptions): Promise<StdioGateway> {
  const file = resolve(options.configFile)
  const raw = await readGatewayConfigFile(file)
  if (options.statusListen !== undefined) raw.statusListen = options.statusListen
  const { gateway, config } = await createGateway(raw, {
    env: options.env,
    cwd: dirname(file),
    logger: options.logger,
    where: file,
  })
  const server = new Server(
    { name: 'dsh-harden-lazy-mcp', version: '0.1.0' },
    {
      capabilities: { tools: {} },
      instructions:
        "MCP gateway: servers start on first use and stop when idle. mcp_servers lists them; mcp_tools shows a server's tools (or searches with query); mcp_call runs one.",
    },
  )
  // What the client sent that cannot be served (not JSON, not JSON-RPC, over the size limit with no readable id)
  // reaches no request handler; it is named on stderr, never on stdout, and the connection carries on.
  server.onerror = (error) => options.logger?.warn(`lazy-mcp: ${error.message}`)
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: GATEWAY_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as { type: 'object'; properties: Record<string, object> },
      annotations: { readOnlyHint: !tool.mayConnect, openWorldHint: tool.mayConnect },
    })),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = GATEWAY_TOOLS.find((candidate) => candidate.name === request.params.name)
    if (!tool)
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] }
    try {
      const text = await tool.run(gateway, request.params.arguments ?? {}, extra.signal)
      return { content: [{ type: 'text', text }] }
    } catch (error) {
      return {
        isError: true,
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      }
    }
  })
  let status: StatusServer | undefined
  if (config.statusListen !== undefined) {
    status = await startStatusServer(gateway, {
      listen: config.statusListen,
      allowNonLoopback: config.statusAllowNonLoopback,
      ...(options.logger ? { warn: (line: string) => options.logger?.warn(line) } : {}),
    })
    options.logger?.info(`lazy-mcp: status panel at ${status.panelUrl}`)
  }
  const transport = new BoundedStdioServerTransport(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
  )
  let shutdown: Promise<void> | undefined
  const close = (): Promise<void> => {
    shutdown ??= (async () => {
      await server.close().catch(() => {})
      await status?.close()
      await gateway.dispose()
    })()
    return shutdown
  }
  const closed = new Promise<void>((done) => {
    server.onclose = () => {
      void close().then(done)
    }
    ;(options.input ?? process.stdin).once('end', () => {
      void close().then(done)
    })
  })
  await server.connect(transport)
  return { gateway, status, closed, close }
}
