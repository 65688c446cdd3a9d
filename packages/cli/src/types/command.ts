import { type Command, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'

const DEFAULT_TIMEOUT_MS = 10_000

const usage = `Usage: dsh-harden types <plugin module or package directory> [--out <file>]
       dsh-harden types --mcp [--out <file>] -- <command> [args...]
       dsh-harden types --mcp-url <url> [--out <file>]

Writes TypeScript declarations for the arguments of every tool a DSH plugin registers (loaded as \`lint\` loads it)
or an MCP server lists: one \`export interface <Name>Args\` per tool, and
\`export interface ToolArgs { '<tool name>': <Name>Args }\` so a tool can be typed \`execute(args: ToolArgs['my_tool'])\`.

Options:
  --out <file>      write the declarations to <file> instead of stdout
  --mcp             list the tools of the stdio MCP server started by the command after \`--\`
  --mcp-url <url>   list the tools of the Streamable HTTP MCP server at <url>
  --timeout <ms>    how long loading the plugin or each MCP request may take (default ${DEFAULT_TIMEOUT_MS})
  -h, --help        show this help

Exit codes: 0 every tool was typed; 1 a tool's parameters fail the root contract (typed \`unknown\`, the comment
says why); 2 nothing could be loaded (no plugin, no server, no tools), or bad usage.
`

export interface TypesOptions {
  readonly source:
    | { readonly kind: 'plugin'; readonly target: string }
    | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
    | { readonly kind: 'http'; readonly url: string }
  readonly out: string | undefined
  readonly timeoutMs: number
}

export const typesCommand: Command = {
  name: 'types',
  summary: "emit TypeScript types for the arguments of a plugin's or an MCP server's tools",
  usage,
  run: runTypes,
}

async function runTypes(args: readonly string[], io: Io): Promise<number> {
  let options: TypesOptions | 'help'
  try {
    options = parse(args)
  } catch (error) {
    return usageFailure(io, 'types', error)
  }
  if (options === 'help') {
    io.stdout(usage)
    return 0
  }
  // The compiler (json-schema-to-typescript, with prettier) and the MCP SDK load only when this command runs.
  const { generateTypes } = await import('./generate.ts')
  return generateTypes(options, io)
}

function parse(args: readonly string[]): TypesOptions | 'help' {
  const split = args.indexOf('--')
  const own = split === -1 ? args : args.slice(0, split)
  const serverCommand = split === -1 ? [] : args.slice(split + 1)
  const { values, positionals } = parseOptions({
    args: [...own],
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      mcp: { type: 'boolean' },
      'mcp-url': { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout)
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new UsageError(`--timeout must be a positive whole number of milliseconds, got ${values.timeout}`)
  const chosen = [positionals.length > 0, values.mcp === true, values['mcp-url'] !== undefined].filter(
    Boolean,
  )
  if (chosen.length > 1)
    throw new UsageError(
      'pass one source: a plugin path, or --mcp -- <command> [args...], or --mcp-url <url>',
    )
  if (values.mcp === true) {
    if (serverCommand.length === 0)
      throw new UsageError(
        '--mcp needs the server command after `--`, e.g. --mcp -- npx -y @modelcontextprotocol/server-everything',
      )
    return {
      source: { kind: 'stdio', command: serverCommand[0]!, args: serverCommand.slice(1) },
      out: values.out,
      timeoutMs,
    }
  }
  if (split !== -1) throw new UsageError('`--` introduces an MCP server command; use it with --mcp')
  if (values['mcp-url'] !== undefined)
    return { source: { kind: 'http', url: values['mcp-url'] }, out: values.out, timeoutMs }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'missing the source: a plugin path, --mcp -- <command> [args...], or --mcp-url <url>'
        : `expected one plugin path, got ${positionals.length}`,
    )
  return { source: { kind: 'plugin', target: positionals[0]! }, out: values.out, timeoutMs }
}
