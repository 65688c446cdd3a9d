import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'
import { ROUTE_HELP, resolveRoute } from './route-option.ts'

const usage = `Usage: dsh-harden mcp gateway --config <file> [--status-listen <host:port>] [--route <profile>]

A lazy MCP gateway as a standalone MCP server over stdio, for Claude Code, Cursor or any MCP client. No server
starts until a call needs it; idle servers are released (their whole process group); tool metadata is cached so
a sleeping server can still be described. The client sees five tools: mcp_servers, mcp_tools, mcp_call,
mcp_resources and mcp_read_resource. A failed call says how far it got: [delivery=not_sent|server_error|may_have_run].

<file> is either the native lazy-mcp configuration ({ "servers": [...], "idleDisconnectMs": …, … }) or a standard
\`mcpServers\` file (Claude Code, Cursor, .mcp.json, Pi). Relative paths in it resolve against its directory.

With --route, the five tools go out as that model route takes them and each call is read back before the gateway
runs it, through the same route door as \`dsh-harden mcp repair --route\` (on openai-strict the open \`arguments\`
object of mcp_call becomes JSON text, decoded on the way back). Without it (the default) they go out
as declared, as before. The tools of the servers behind the gateway reach the model as text (mcp_tools), not as
tool definitions, so their names and schemas are not the route's to refuse.

Options:
  --config <file>              the configuration (required)
  --status-listen <host:port>  also serve the status JSON and panel (e.g. 127.0.0.1:0; the URL goes to stderr)
  --route <profile>            ${ROUTE_HELP}
  -h, --help                   show this help

Diagnostics go to stderr; stdout carries only the MCP protocol. Exit code 2: bad usage or a broken configuration.
`

export const gatewayCommand: Command = {
  name: 'gateway',
  summary: 'a lazy MCP gateway over stdio: servers start on first use and stop when idle',
  usage,
  run: runGateway,
}

async function runGateway(args: readonly string[], io: Io): Promise<number> {
  let values: { config?: string; 'status-listen'?: string; route?: string; help?: boolean }
  let route: Awaited<ReturnType<typeof resolveRoute>>
  try {
    values = parseOptions({
      args: [...args],
      strict: true,
      options: {
        config: { type: 'string' },
        'status-listen': { type: 'string' },
        route: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values
    route = await resolveRoute(values.route, '--route')
  } catch (error) {
    return usageFailure(io, 'mcp gateway', error)
  }
  if (values.help) {
    io.stdout(usage)
    return 0
  }
  if (values.config === undefined) {
    return usageFailure(io, 'mcp gateway', new UsageError('missing --config <file>'))
  }
  const { resolve } = await import('node:path')
  if (route !== undefined)
    return routedGateway(route, resolve(io.cwd, values.config), values['status-listen'], io)
  const { serveGatewayOverStdio } = await import('@dsh-harden/lazy-mcp')
  const log = (level: string) => (message: string) =>
    io.stderr(`dsh-harden mcp gateway: ${level}${message}\n`)
  let served: Awaited<ReturnType<typeof serveGatewayOverStdio>>
  try {
    served = await serveGatewayOverStdio({
      configFile: resolve(io.cwd, values.config),
      statusListen: values['status-listen'],
      logger: { info: log(''), warn: log('warning: '), error: log('error: ') },
    })
  } catch (error) {
    io.stderr(`dsh-harden mcp gateway: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT_UNUSABLE
  }
  const stop = () => void served.close()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    await served.closed
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  return 0
}

/**
 * The gateway behind the route door: this command again without --route, as the server of a stdio repair proxy that
 * serves its tools for `route`. The gateway sees this process's whole environment, as it would unwrapped; it applies
 * its own allow-list to each server it starts.
 */
async function routedGateway(
  route: NonNullable<Awaited<ReturnType<typeof resolveRoute>>>,
  configFile: string,
  statusListen: string | undefined,
  io: Io,
): Promise<number> {
  const { fileURLToPath } = await import('node:url')
  const { startStdioRepair } = await import('@dsh-harden/mcp-repair')
  const { RouteDoor } = await import('./route-door.ts')
  const bin = fileURLToPath(new URL('../../bin/dsh-harden.js', import.meta.url))
  const gateway = ['mcp', 'gateway', '--config', configFile]
  if (statusListen !== undefined) gateway.push('--status-listen', statusListen)
  const proxy = startStdioRepair({
    command: process.execPath,
    args: [...process.execArgv, bin, ...gateway],
    passEnv: Object.keys(process.env),
    server: 'gateway',
    log: (line) => io.stderr(`dsh-harden mcp gateway: ${line}\n`),
    openRoute: (server) => new RouteDoor(route, server),
  })
  const forward = (signal: NodeJS.Signals) => () => proxy.child.kill(signal)
  const onInt = forward('SIGINT')
  const onTerm = forward('SIGTERM')
  process.once('SIGINT', onInt)
  process.once('SIGTERM', onTerm)
  try {
    return await proxy.exited
  } finally {
    process.off('SIGINT', onInt)
    process.off('SIGTERM', onTerm)
  }
}
