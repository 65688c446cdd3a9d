import { text } from 'node:stream/consumers'
import { parseArgs } from 'node:util'
import { type Command, EXIT_UNUSABLE, type Io } from './command.ts'
import { lintCommand } from './lint/command.ts'
import { mcpCommand } from './mcp/command.ts'
import { sanitizeCommand } from './sanitize/command.ts'
import { typesCommand } from './types/command.ts'
import { installUncaughtHandlers } from './uncaught.ts'

/** Every subcommand, one module each; a new one (sanitize, types, mcp …) is one entry here. */
export const COMMANDS: readonly Command[] = [lintCommand, typesCommand, sanitizeCommand, mcpCommand]

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length))
  const list = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')
  return `Usage: dsh-harden <command> [options]

Commands:
${list}

Run \`dsh-harden <command> --help\` for a command's options.
`
}

/** Parses `argv` (without node and the script) and runs one command; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const first = argv.findIndex((arg) => !arg.startsWith('-'))
  const globalArgs = first === -1 ? argv : argv.slice(0, first)
  let help = false
  try {
    help =
      parseArgs({ args: [...globalArgs], strict: true, options: { help: { type: 'boolean', short: 'h' } } })
        .values.help === true
  } catch (error) {
    io.stderr(`dsh-harden: ${error instanceof Error ? error.message : String(error)}\n\n${usage()}`)
    return EXIT_UNUSABLE
  }
  if (help) {
    io.stdout(usage())
    return 0
  }
  if (first === -1) {
    io.stderr(`dsh-harden: missing a command\n\n${usage()}`)
    return EXIT_UNUSABLE
  }
  const name = argv[first]!
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined) {
    io.stderr(`dsh-harden: unknown command ${JSON.stringify(name)}\n\n${usage()}`)
    return EXIT_UNUSABLE
  }
  return command.run(argv.slice(first + 1), io)
}

/** The bin's entry: runs `main` on the process and exits once the output is flushed (a plugin may hold timers open). */
export async function run(): Promise<void> {
  const exit = (code: number): void => {
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
  }
  installUncaughtHandlers((text) => process.stderr.write(text), exit)
  const io: Io = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    stdin: () => text(process.stdin),
  }
  let code: number
  try {
    code = await main(process.argv.slice(2), io)
  } catch (error) {
    io.stderr(`dsh-harden: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`)
    code = EXIT_UNUSABLE
  }
  exit(code)
}
