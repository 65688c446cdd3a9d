import type { Command } from '../command.ts'

/** The `dsh-harden mcp <name>` subcommands, one module each. */
export const MCP_SUBCOMMANDS: readonly Command[] = []
