import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'

const usage = `Usage: dsh-harden sanitize --route <profile> [file | -] [--json] [--no-repair]

Reads an MCP tools/list result ({ "tools": [...] }, or the JSON-RPC response around it) or an array of tools
({ name, description?, inputSchema, outputSchema? }) from <file>, or from stdin when it is \`-\` or omitted, and
writes the same JSON with each inputSchema (and outputSchema) replaced by the wire schema the profile's model
route accepts, and each tool name the route refuses replaced by its wire name (\`service.doSomething\` ->
\`service_doSomething\` where dots are refused), the same projection and renames the dsh-harden overlay and \`mcp
repair --route\` apply. A tool the route already accepts comes out byte for byte as it went in.

Every verdict comes from the MCP boundary of @dsh-harden/tools, the one the dsh-harden MCP intake and the
gateway use (\`mcp repair\` uses its \`spec\` policy): mistakes with exactly one meaning (\`{}\`, a root of only \`$schema\`, a bare
property table, a missing root \`type\`, \`required: null\`) are repaired, unless --no-repair; any other root-contract
violation, or a schema the route would still refuse, rejects the tool: reported, and left out of the output. An
output schema no client could use is dropped and the tool kept.

Some changes alter what the model sends: an any-JSON slot becomes a JSON-text string (\`encoded-json\`), an
optional field admits null for "not provided" (\`widened-nullable\`, on openai-strict and codex). The report
marks each one "needs a decoder" (\`needsDecoder\` in --json), and so is a renamed tool (\`wireName\` in --json): the
model calls it by the wire name. The decoders are the dsh-harden overlay inside DSH and \`dsh-harden mcp repair
--route\` (and the gateway with --route): they read the arguments back, and map a wire name back, before the tool
runs. Used on its own, the output changes what a server receives: JSON text where it declared a value, null where
it declared an optional field, a name it never declared.

Options:
  --route <p>       the model route: run \`dsh-harden sanitize --route ?\` to list them (required; which route a
                    client needs: see \`dsh-harden mcp repair --help\`)
  --profile <p>     the same as --route (its older name, kept working)
  --json            print { "profile", "tools": [...], "report": [...] } on stdout instead of the
                    sanitized JSON (stdout) and a text report (stderr)
  --no-repair       reject \`{}\` and the other one-meaning mistakes instead of repairing them
  -h, --help        show this help

Exit codes: 0 every tool was passed on; 1 a tool was rejected (left out); 2 an unknown profile, an input that
cannot be read or is not JSON of that shape, or bad usage.
`

export interface SanitizeOptions {
  readonly profile: string
  /** A path, or `-` for stdin. */
  readonly input: string
  readonly json: boolean
  readonly repair: boolean
}

export const sanitizeCommand: Command = {
  name: 'sanitize',
  summary: 'project an MCP tools/list to the wire schemas one model route accepts, reporting each change',
  usage,
  run: runSanitize,
}

async function runSanitize(args: readonly string[], io: Io): Promise<number> {
  let options: SanitizeOptions | 'help'
  try {
    options = parse(args)
  } catch (error) {
    return usageFailure(io, 'sanitize', error)
  }
  if (options === 'help') {
    io.stdout(usage)
    return 0
  }
  // Loaded on use, so the other commands never depend on the projection module.
  let sanitize: typeof import('./run.ts')
  try {
    sanitize = await import('./run.ts')
  } catch (error) {
    io.stderr(
      `dsh-harden sanitize: this build of @dsh-harden/tools lacks the projection API (projectParameters, checkProfileContract, PROFILE_IDS): ${error instanceof Error ? error.message : String(error)}\n`,
    )
    return EXIT_UNUSABLE
  }
  return sanitize.runSanitize(options, io)
}

function parse(args: readonly string[]): SanitizeOptions | 'help' {
  const { values, positionals } = parseOptions({
    args: [...args],
    allowPositionals: true,
    allowNegative: true,
    strict: true,
    options: {
      route: { type: 'string' },
      profile: { type: 'string' },
      json: { type: 'boolean' },
      repair: { type: 'boolean', default: true },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  if (values.route !== undefined && values.profile !== undefined && values.route !== values.profile)
    throw new UsageError(
      `--route ${values.route} and --profile ${values.profile} name different routes; --profile is --route's older name, give one`,
    )
  if (positionals.length > 1)
    throw new UsageError(
      `expected one input file (or -), got ${positionals.length}: ${positionals.join(' ')}`,
    )
  return {
    // Checked against the profile list once the projection module is loaded.
    profile: values.route ?? values.profile ?? '',
    input: positionals[0] ?? '-',
    json: values.json === true,
    repair: values.repair !== false,
  }
}
