import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'
import { messageOf } from './inject.ts'
import { loadPlugin, PluginLoadError } from './load.ts'
import { exitCodeOf, formatJson, formatText } from './report.ts'
import { mountAndLint } from './runtime.ts'

const DEFAULT_TIMEOUT_MS = 10_000

const usage = `Usage: dsh-harden lint <plugin module or package directory> [--json] [--timeout <ms>]

Loads a DeepSeek Harness plugin into a real DSH runtime (cordis + dsh-system-prompt + dsh-tools) with the
dsh-harden overlay in collect mode, and reports the verdict for every tool it registers.

Options:
  --json            print { "tools": [ { "name", "source", "ok", "errors": [...] } ], ... } instead of text
  --timeout <ms>    how long the plugin may take to load (default ${DEFAULT_TIMEOUT_MS})
  -h, --help        show this help

Exit codes: 0 every tool passed; 1 a tool failed (or the plugin misbehaved after registering tools);
2 the plugin could not be loaded, or bad usage.
`

export const lintCommand: Command = {
  name: 'lint',
  summary: "check every tool a plugin registers against the root contract, as DSH's overlay would at load",
  usage,
  run: runLint,
}

async function runLint(args: readonly string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    return usageFailure(io, 'lint', error)
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout(usage)
    return 0
  }
  const json = values.json === true
  const fail = (message: string, notes: readonly string[] = []): number => {
    if (json)
      io.stdout(
        `${JSON.stringify(notes.length === 0 ? { error: message } : { error: message, notes }, null, 2)}\n`,
      )
    else io.stderr(`dsh-harden lint: ${message}\n${notes.map((note) => `note: ${note}\n`).join('')}`)
    return EXIT_UNUSABLE
  }
  if (positionals.length !== 1) {
    const problem =
      positionals.length === 0
        ? 'missing the plugin path'
        : `expected one plugin path, got ${positionals.length}`
    return json ? fail(problem) : usageFailure(io, 'lint', new UsageError(problem))
  }
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout)
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    return fail(`--timeout must be a positive whole number of milliseconds, got ${values.timeout}`)

  const target = positionals[0]!
  try {
    const loaded = await loadPlugin(target, io.cwd)
    const report = await mountAndLint(loaded, { display: target, timeoutMs })
    io.stdout(json ? formatJson(report) : formatText(report))
    return exitCodeOf(report)
  } catch (error) {
    if (error instanceof PluginLoadError) return fail(error.message, error.notes)
    return fail(messageOf(error))
  }
}

function parse(args: readonly string[]) {
  return parseOptions({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
