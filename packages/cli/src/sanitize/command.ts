import { parseArgs } from 'node:util'
import { type Command, EXIT_UNUSABLE, type Io } from '../command.ts'

const usage = `Usage: dsh-harden sanitize --profile <profile> [file | -] [--json] [--no-repair]

Reads an MCP tools/list result ({ "tools": [...] }, or the JSON-RPC response around it) or an array of tools
({ name, description?, inputSchema, outputSchema? }) from <file>, or from stdin when it is \`-\` or omitted, and
writes the same JSON with each inputSchema (and outputSchema) replaced by the wire schema the profile's model
route accepts. A tool the route already accepts comes out byte for byte as it went in.

A tool whose schema fails the root contract is rejected: reported, and left out of the output. Mistakes with
exactly one meaning (\`{}\`, a bare property table, a missing root \`type\`) are repaired first, as the
dsh-harden MCP intake repairs them, unless --no-repair.

Options:
  --profile <p>     the model route: run \`dsh-harden sanitize --profile ?\` to list them
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
    io.stderr(`dsh-harden sanitize: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`)
    return EXIT_UNUSABLE
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
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    allowNegative: true,
    strict: true,
    options: {
      profile: { type: 'string' },
      json: { type: 'boolean' },
      repair: { type: 'boolean', default: true },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  if (positionals.length > 1) throw new Error(`expected one input file (or -), got ${positionals.length}`)
  return {
    // Checked against the profile list once the projection module is loaded.
    profile: values.profile ?? '',
    input: positionals[0] ?? '-',
    json: values.json === true,
    repair: values.repair !== false,
  }
}
