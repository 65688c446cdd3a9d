import { type ParseArgsConfig, parseArgs } from 'node:util'

/** Where a command writes. The CLI passes the process streams; tests and embedders can pass their own. */
export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly cwd: string
  /** All of standard input, for commands that read `-`; the CLI reads the process's stdin. */
  readonly stdin?: (() => Promise<string>) | undefined
}

/** One `dsh-harden <name>` subcommand, in a module of its own. `run` returns the exit code. */
export interface Command {
  readonly name: string
  /** One line for `dsh-harden --help`. */
  readonly summary: string
  /** The full `dsh-harden <name> --help` text. */
  readonly usage: string
  /** A command group's own commands (`mcp repair`, …), listed in the top-level help under their full names. */
  readonly subcommands?: readonly Command[]
  readonly run: (args: readonly string[], io: Io) => Promise<number>
}

/** Exit code for a command that could not do its job at all: bad usage, or an input it cannot load. */
export const EXIT_UNUSABLE = 2

/** A mistake in how the command was called; printed as one line that points at the command's `--help`. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * `parseArgs` with its errors rewritten as one plain `UsageError` sentence. Node's own texts quote with unbalanced
 * quotes and explain positional escapes nobody asked about ("Unknown option '--foo'. To specify a positional …").
 */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new UsageError(usageMessageOf(error))
  }
}

function usageMessageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const unknown = /^Unknown option '([^']+)'/.exec(message)
  if (unknown !== null) return `unknown option ${unknown[1]}`
  const option = /^Option '(?:-\w, )?(-[^' ]+)(?: <value>)?'/.exec(message)?.[1]
  if (option !== undefined) {
    if (message.includes('argument missing')) return `option ${option} needs a value`
    if (message.includes('does not take an argument')) return `option ${option} takes no value`
    if (message.includes('is ambiguous'))
      return `option ${option} needs a value (to pass one that starts with "-", write ${option}=<value>)`
  }
  const positional = /^Unexpected argument '([^']*)'/.exec(message)
  if (positional !== null) return `unexpected argument ${JSON.stringify(positional[1])}`
  return message
}

/**
 * Prints a usage mistake as `dsh-harden <command>: <what>; run dsh-harden <command> --help` and returns exit code 2.
 * `command` is the full command path, e.g. `lint` or `mcp check` (empty for the top level).
 */
export function usageFailure(io: Io, command: string, error: unknown): number {
  const message = error instanceof Error ? error.message : String(error)
  const name = command === '' ? 'dsh-harden' : `dsh-harden ${command}`
  io.stderr(`${name}: ${message}; run \`${name} --help\` for the usage\n`)
  return EXIT_UNUSABLE
}

/** The `Commands:` lines of a help text; a command group is listed as its subcommands, under their full names. */
export function commandList(commands: readonly Command[]): string {
  const rows = commands.flatMap((command) =>
    command.subcommands === undefined
      ? [[command.name, command.summary] as const]
      : command.subcommands.map((sub) => [`${command.name} ${sub.name}`, sub.summary] as const),
  )
  const width = Math.max(0, ...rows.map(([name]) => name.length))
  return rows.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`).join('\n')
}

/**
 * Runs the command named by the first argument: `--help` prints `usage`, and a missing or unknown name or an
 * option before it is a usage mistake. `path` is the group's own command path (`''` at the top level, `mcp`).
 */
export async function dispatch(
  path: string,
  commands: readonly Command[],
  usage: string,
  args: readonly string[],
  io: Io,
): Promise<number> {
  const [name, ...rest] = args
  if (name === '--help' || name === '-h') {
    io.stdout(usage)
    return 0
  }
  const names = commands.map((command) => command.name).join(', ')
  if (name === undefined) return usageFailure(io, path, new UsageError(`missing a command (${names})`))
  if (name.startsWith('-')) return usageFailure(io, path, new UsageError(`unknown option ${name}`))
  const command = commands.find((candidate) => candidate.name === name)
  if (command === undefined)
    return usageFailure(
      io,
      path,
      new UsageError(`unknown command ${JSON.stringify(name)} (commands: ${names})`),
    )
  return command.run(rest, io)
}
