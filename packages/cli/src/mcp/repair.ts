import { type OpenRoute, startHttpRepair, startStdioRepair } from '@dsh-harden/mcp-repair'
import { NonLoopbackListenError } from '@dsh-harden/mcp-transport'
import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'
import { ROUTE_HELP, resolveRoute } from './route-option.ts'

const usage = `Usage: dsh-harden mcp repair [--route <profile>] [--server <name>] -- <command> [args…]
       dsh-harden mcp repair --upstream <url> [--listen <host:port>] [--route <profile>] [--server <name>]

A repair proxy in front of any MCP server, for any strict MCP client. It rewrites only \`tools/list\` results
(single and batched), and in them only the tools the MCP schema rejects: a schema with exactly one meaning
(\`{}\`, only \`$schema\`, \`required: null\`, a missing schema) is repaired, anything else is left out with a
diagnostic. Every other byte passes through. One line per repaired response goes to stderr:
\`repaired N of M tools: …\`.

With --route, every tool also goes out as that model route takes it, exactly as the dsh-harden overlay sends it in
DSH: a name the route refuses is renamed (\`service.doSomething\` -> \`service_doSomething\` where dots are refused),
an input schema the route refuses or misreads is projected, and a tool the route would still refuse is left out.
Each \`tools/call\` to a wire name reaches the server under the tool's own name, with its arguments read back into
the declared shape. Without --route (the default) no tool is renamed or projected, as before. Which route a
client needs: Claude Code and Claude Desktop \`anthropic\`; Codex CLI \`codex\`; Gemini CLI \`gemini\`; Cursor the
route of the model selected in it (\`anthropic\` for Claude models, \`gemini\` for Gemini, \`openai\` for GPT).

Modes:
  -- <command> [args…]     stdio: spawn the server; speak MCP over this process's stdin/stdout
  --upstream <url>         Streamable HTTP: serve a facade of the server at <url>

Options:
  --listen <host:port>     where the HTTP facade listens (default 127.0.0.1:0, printed on stderr)
  --allow-non-loopback     let --listen name an address other machines can reach (prints a warning);
                           without it only loopback addresses are accepted
  --route <profile>        ${ROUTE_HELP}
  --server <name>          the server's name in log lines
  -h, --help               show this help

If the server exits, sends malformed JSON or cannot be reached, every pending request is answered with a
JSON-RPC error; nothing is guessed at and no request is left waiting.
`

export const repairCommand: Command = {
  name: 'repair',
  summary: 'a repair proxy (stdio wrapper or HTTP facade) that fixes tools/list for strict clients',
  usage,
  run: runRepair,
}

function checkUpstream(upstream: string): void {
  const url = URL.parse(upstream)
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      `--upstream ${JSON.stringify(upstream)} is not an http(s) URL; pass the server's endpoint, e.g. http://127.0.0.1:3001/mcp`,
    )
}

function parseListen(listen: string): { host: string; port: number } {
  const colon = listen.lastIndexOf(':')
  const host = colon === -1 ? '127.0.0.1' : listen.slice(0, colon).replace(/^\[|\]$/g, '')
  const port = Number(colon === -1 ? listen : listen.slice(colon + 1))
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--listen ${JSON.stringify(listen)}: expected <host:port> with a port 0-65535`)
  return { host: host || '127.0.0.1', port }
}

/** One route door per client session for `--route`; loaded only then, so a repair without a route never projects. */
async function routeDoors(route: string | undefined): Promise<OpenRoute | undefined> {
  const profile = await resolveRoute(route, '--route')
  if (profile === undefined) return undefined
  const { RouteDoor } = await import('./route-door.ts')
  return (server) => new RouteDoor(profile, server)
}

async function runRepair(args: readonly string[], io: Io): Promise<number> {
  const dashes = args.indexOf('--')
  const own = dashes === -1 ? args : args.slice(0, dashes)
  const command = dashes === -1 ? [] : args.slice(dashes + 1)
  let values: {
    upstream?: string
    listen?: string
    server?: string
    route?: string
    'allow-non-loopback'?: boolean
    help?: boolean
  }
  try {
    values = parseOptions({
      args: [...own],
      strict: true,
      options: {
        upstream: { type: 'string' },
        listen: { type: 'string' },
        server: { type: 'string' },
        route: { type: 'string' },
        'allow-non-loopback': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values
  } catch (error) {
    return usageFailure(io, 'mcp repair', error)
  }
  if (values.help) {
    io.stdout(usage)
    return 0
  }
  let openRoute: OpenRoute | undefined
  try {
    openRoute = await routeDoors(values.route)
  } catch (error) {
    return usageFailure(io, 'mcp repair', error)
  }
  const log = (line: string) => io.stderr(`dsh-harden mcp repair: ${line}\n`)
  if (values.upstream !== undefined) {
    if (command.length > 0) {
      return usageFailure(
        io,
        'mcp repair',
        new UsageError('give either --upstream or -- <command>, not both'),
      )
    }
    let listen: { host: string; port: number }
    try {
      checkUpstream(values.upstream)
      listen = parseListen(values.listen ?? '127.0.0.1:0')
    } catch (error) {
      return usageFailure(io, 'mcp repair', error)
    }
    let facade: Awaited<ReturnType<typeof startHttpRepair>>
    try {
      facade = await startHttpRepair({
        upstream: values.upstream,
        ...listen,
        log,
        server: values.server,
        allowNonLoopback: values['allow-non-loopback'] === true,
        openRoute,
      })
    } catch (error) {
      if (error instanceof NonLoopbackListenError) {
        // The message already names the fix (loopback, or the flag) and carries its own `mcp repair:` prefix.
        log(error.message.replace(/^mcp repair: /, ''))
        return EXIT_UNUSABLE
      }
      throw error
    }
    log(`serving ${values.upstream} at ${facade.url}`)
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    await facade.close()
    return 0
  }
  const [executable, ...rest] = command
  if (executable === undefined) {
    return usageFailure(io, 'mcp repair', new UsageError('missing -- <command> or --upstream <url>'))
  }
  const proxy = startStdioRepair({ command: executable, args: rest, log, server: values.server, openRoute })
  // The client closing our stdin ends the server's stdin; a signal to us is passed on to the server we started.
  const forward = (signal: NodeJS.Signals) => () => proxy.child.kill(signal)
  const onInt = forward('SIGINT')
  const onTerm = forward('SIGTERM')
  process.once('SIGINT', onInt)
  process.once('SIGTERM', onTerm)
  try {
    const code = await proxy.exited
    // 127: the proxy already said the server could not be started. Any other failure would otherwise end in silence.
    if (code !== 0 && code !== 127)
      log(
        `the server ${JSON.stringify(executable)} exited with code ${code}; its own stderr (above) says why`,
      )
    return code
  } finally {
    process.off('SIGINT', onInt)
    process.off('SIGTERM', onTerm)
  }
}
