import { type Command, EXIT_UNUSABLE } from '../command.ts'
import { MCP_SUBCOMMANDS } from './subcommands.ts'

function usage(): string {
  const width = Math.max(0, ...MCP_SUBCOMMANDS.map((command) => command.name.length))
  const list = MCP_SUBCOMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join(
    '\n',
  )
  return `Usage: dsh-harden mcp <command> [options]\n\nCommands:\n${list}\n\nRun \`dsh-harden mcp <command> --help\` for a command's options.\n`
}

/** `dsh-harden mcp …`: the commands that work on MCP servers, dispatched like the top-level ones. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Work with MCP servers: repair proxy, conformance check',
  get usage() {
    return usage()
  },
  async run(args, io) {
    const [name, ...rest] = args
    if (name === undefined || name === '--help' || name === '-h') {
      const write = name === undefined ? io.stderr : io.stdout
      write(usage())
      return name === undefined ? EXIT_UNUSABLE : 0
    }
    const command = MCP_SUBCOMMANDS.find((candidate) => candidate.name === name)
    if (command === undefined) {
      io.stderr(`dsh-harden mcp: unknown command ${JSON.stringify(name)}\n\n${usage()}`)
      return EXIT_UNUSABLE
    }
    return command.run(rest, io)
  },
}
