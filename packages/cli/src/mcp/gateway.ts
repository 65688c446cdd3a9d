import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'

const usage = `Usage: dsh-harden mcp gateway --config <file> [--status-listen <host:port>]

A lazy MCP gateway as a standalone MCP server over stdio, for Claude Code, Cursor or any MCP client. No server
starts until a call needs it; idle servers are released (their whole process group); tool metadata is cached so
a sleeping server can still be described. The client sees five tools: mcp_servers, mcp_tools, mcp_call,
mcp_resources and mcp_read_resource. A failed call says how far it got: [delivery=not_sent|server_error|may_have_run].

<file> is either the native lazy-mcp configuration ({ "servers": [...], "idleDisconnectMs": …, … }) or a standard
\`mcpServers\` file (Claude Code, Cursor, .mcp.json, Pi). Relative paths in it resolve against its directory.

Options:
  --config <file>              the configuration (required)
  --status-listen <host:port>  also serve the status JSON and panel (e.g. 127.0.0.1:0; the URL goes to stderr)
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
  let values: { config?: string; 'status-listen'?: string; help?: boolean }
  try {
    values = parseOptions({
      args: [...args],
      strict: true,
      options: {
        config: { type: 'string' },
        'status-listen': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values
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
