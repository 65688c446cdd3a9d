import { DeliveryError } from './delivery.ts'
import { LazyMcpGateway } from './gateway.ts'
import { renderTool } from './render.ts'

/** The JSON Schema of a gateway tool's arguments: an object root every model route accepts as it is. */
export interface ParametersSchema {
  readonly type: 'object'
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly required?: readonly string[]
}

/** One gateway tool, independent of where it is served (DSH registry or stdio MCP server). */
export interface GatewayTool {
  readonly name: 'mcp_servers' | 'mcp_tools' | 'mcp_call' | 'mcp_resources' | 'mcp_read_resource'
  readonly description: string
  readonly parameters: ParametersSchema
  /** Whether it can start a server (`mcp_servers` and cached `mcp_tools` never do). */
  readonly mayConnect: boolean
  run(gateway: LazyMcpGateway, args: unknown, signal?: AbortSignal): Promise<string>
}

/** Bad arguments to a gateway tool: nothing was sent anywhere. */
export class GatewayArgumentsError extends Error {
  override readonly name = 'GatewayArgumentsError'
}

function object(args: unknown, tool: string): Record<string, unknown> {
  if (args === undefined || args === null) return {}
  if (typeof args !== 'object' || Array.isArray(args))
    throw new GatewayArgumentsError(`${tool}: arguments must be an object, got ${JSON.stringify(args)}`)
  return args as Record<string, unknown>
}

function string(value: unknown, tool: string, key: string, required: true): string
function string(value: unknown, tool: string, key: string, required: false): string | undefined
function string(value: unknown, tool: string, key: string, required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) throw new GatewayArgumentsError(`${tool}: \`${key}\` is required (a non-empty string)`)
    return undefined
  }
  if (typeof value !== 'string') throw new GatewayArgumentsError(`${tool}: \`${key}\` must be a string`)
  return value
}

/** `arguments` of `mcp_call`: an object, or JSON text of one (strict routes send open objects as text). */
function callArguments(value: unknown, server: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {}
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new DeliveryError(
        'not_sent',
        server,
        '`arguments` must be an object (or JSON text of one); it is not JSON',
      )
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new DeliveryError('not_sent', server, "`arguments` must be an object of the tool's parameters")
  return parsed as Record<string, unknown>
}

const SERVER = { type: 'string', description: 'Server name, as listed by mcp_servers.' } as const

export const GATEWAY_TOOLS: readonly GatewayTool[] = [
  {
    name: 'mcp_servers',
    description:
      'List the configured MCP servers: lifecycle, state (dormant/connecting/ready), tool count and where it comes from, last error. Never starts a server.',
    parameters: { type: 'object', properties: {} },
    mayConnect: false,
    async run(gateway) {
      return gateway.servers()
    },
  },
  {
    name: 'mcp_tools',
    description:
      "List one MCP server's tools with their input schemas ({ server }), served from cache while the server sleeps; { server, refresh: true } starts it and re-reads the live list. { query } searches the tools of every server by name and description without starting any.",
    parameters: {
      type: 'object',
      properties: {
        server: SERVER,
        refresh: {
          type: 'boolean',
          description: 'Start the server if needed and re-read its live tool list.',
        },
        query: {
          type: 'string',
          description: "Words to search for across every server's tools (with server: only that server's).",
        },
        limit: { type: 'integer', description: 'Most search results to return: 1 to 50, default 10.' },
      },
    },
    mayConnect: true,
    async run(gateway, raw) {
      const args = object(raw, 'mcp_tools')
      const query = string(args.query, 'mcp_tools', 'query', false)
      const server = string(args.server, 'mcp_tools', 'server', false)
      if (query !== undefined) {
        const limit =
          typeof args.limit === 'number' && Number.isInteger(args.limit)
            ? Math.min(50, Math.max(1, args.limit))
            : 10
        const found = gateway.search(query, server === undefined ? limit : 1000)
        const hits =
          server === undefined
            ? found.hits
            : found.hits.filter((hit) => hit.server === server).slice(0, limit)
        const unlisted =
          server === undefined ? found.unlisted : found.unlisted.filter((name) => name === server)
        const lines =
          hits.length === 0
            ? [`No tool matches "${query}".`]
            : [
                `Tools matching "${query}" (best first):`,
                ...hits.map((hit) => `[${hit.server}] ${renderTool(hit.tool).slice(2)}`),
              ]
        if (unlisted.length > 0)
          lines.push(
            `Not searched (never listed with this configuration): ${unlisted.join(', ')}. mcp_tools { server, refresh: true } lists one.`,
          )
        lines.push('Call one with mcp_call { server, tool, arguments }.')
        return lines.join('\n')
      }
      if (server === undefined)
        throw new GatewayArgumentsError(
          'mcp_tools: pass `server` (list its tools) or `query` (search every server)',
        )
      const refresh = args.refresh === true
      const listing = await gateway.listTools(server, { refresh })
      return LazyMcpGateway.renderListing(listing, server, !refresh)
    },
  },
  {
    name: 'mcp_call',
    description:
      'Call a tool of an MCP server, starting the server if it is dormant. A failure starts with [delivery=not_sent|server_error|may_have_run]: only not_sent is safe to retry as is; never repeat a may_have_run call without checking its effect.',
    parameters: {
      type: 'object',
      properties: {
        server: SERVER,
        tool: { type: 'string', description: 'Tool name, as listed by mcp_tools.' },
        arguments: { type: 'object', description: "The tool's arguments, matching its input schema." },
      },
      required: ['server', 'tool'],
    },
    mayConnect: true,
    async run(gateway, raw, signal) {
      const args = object(raw, 'mcp_call')
      const server = string(args.server, 'mcp_call', 'server', true)
      const tool = string(args.tool, 'mcp_call', 'tool', true)
      return gateway.call(server, tool, callArguments(args.arguments, server), { signal })
    },
  },
  {
    name: 'mcp_resources',
    description:
      'List the resources (documents, files, data an MCP server can be READ for) and resource templates of one server. Starts the server if needed.',
    parameters: { type: 'object', properties: { server: SERVER }, required: ['server'] },
    mayConnect: true,
    async run(gateway, raw, signal) {
      const args = object(raw, 'mcp_resources')
      return gateway.resources(string(args.server, 'mcp_resources', 'server', true), { signal })
    },
  },
  {
    name: 'mcp_read_resource',
    description:
      'Read one resource of an MCP server by its exact uri (from mcp_resources, or a template with its variables filled in). Text comes back in full up to 8,000 characters; binary bodies as a size note.',
    parameters: {
      type: 'object',
      properties: { server: SERVER, uri: { type: 'string', description: 'The exact resource uri.' } },
      required: ['server', 'uri'],
    },
    mayConnect: true,
    async run(gateway, raw, signal) {
      const args = object(raw, 'mcp_read_resource')
      return gateway.readResource(
        string(args.server, 'mcp_read_resource', 'server', true),
        string(args.uri, 'mcp_read_resource', 'uri', true),
        { signal },
      )
    },
  },
]
