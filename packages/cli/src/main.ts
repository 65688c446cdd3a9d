import { text } from 'node:stream/consumers'
import { type Command, commandList, dispatch, EXIT_UNUSABLE, type Io } from './command.ts'
import { doctorCommand } from './doctor/command.ts'
import { lintCommand } from './lint/command.ts'
import { divertStdout } from './lint/stdout.ts'
import { mcpCommand } from './mcp/command.ts'
import { sanitizeCommand } from './sanitize/command.ts'
import { typesCommand } from './types/command.ts'
import { installUncaughtHandlers, unexpected } from './uncaught.ts'

/** Every subcommand, one module each; a new one (sanitize, types, mcp …) is one entry here. */
export const COMMANDS: readonly Command[] = [
  lintCommand,
  typesCommand,
  sanitizeCommand,
  mcpCommand,
  doctorCommand,
]

const usage = `Usage: dsh-harden <command> [options]

Commands:
${commandList(COMMANDS)}

Run \`dsh-harden <command> --help\` for a command's options.

Exit codes: 0 ok; 1 findings (a tool or a server failed a check); 2 unusable input or bad usage.
Set DSH_HARDEN_DEBUG=1 to print the stack trace of an unexpected error.
`

/** Parses `argv` (without node and the script) and runs one command; resolves to the exit code. */
export function main(argv: readonly string[], io: Io): Promise<number> {
  return dispatch('', COMMANDS, usage, argv, io)
}

/** The bin's entry: runs `main` on the process and exits once the output is flushed (a plugin may hold timers open). */
export async function run(): Promise<void> {
  // The report goes through the real stdout; once it is written, anything else (a linted plugin's timer or its
  // `process.on('exit')` handler) is sent to stderr, so nothing can follow the report and `--json` stays parseable.
  const write = process.stdout.write.bind(process.stdout)
  const exit = (code: number): void => {
    divertStdout()
    write('', () => process.stderr.write('', () => process.exit(code)))
  }
  installUncaughtHandlers((text) => process.stderr.write(text), exit)
  // The workspace's `pnpm dsh-harden …` script runs at the repository root; the paths on the command line are
  // relative to the folder the user typed them in, which pnpm and npm pass as INIT_CWD.
  const { INIT_CWD, npm_lifecycle_event } = process.env
  if (npm_lifecycle_event === 'dsh-harden' && INIT_CWD !== undefined && INIT_CWD !== '')
    process.chdir(INIT_CWD)
  const io: Io = {
    stdout: (text) => write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    stdin: () => text(process.stdin),
  }
  let code: number
  try {
    code = await main(process.argv.slice(2), io)
  } catch (error) {
    io.stderr(unexpected('error', error))
    code = EXIT_UNUSABLE
  }
  exit(code)
}
