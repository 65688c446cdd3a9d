import { type Command, commandList, dispatch } from '../command.ts'
import { MCP_SUBCOMMANDS } from './subcommands.ts'

const usage = `Usage: dsh-harden mcp <command> [options]

Commands:
${commandList(MCP_SUBCOMMANDS)}

Run \`dsh-harden mcp <command> --help\` for a command's options.
`

/** `dsh-harden mcp …`: the commands that work on MCP servers, dispatched like the top-level ones. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'work with MCP servers: repair proxy, lazy gateway, conformance check',
  usage,
  subcommands: MCP_SUBCOMMANDS,
  run: (args, io) => dispatch('mcp', MCP_SUBCOMMANDS, usage, args, io),
}
