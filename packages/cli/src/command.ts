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
  readonly run: (args: readonly string[], io: Io) => Promise<number>
}

/** Exit code for a command that could not do its job at all: bad usage, or an input it cannot load. */
export const EXIT_UNUSABLE = 2
