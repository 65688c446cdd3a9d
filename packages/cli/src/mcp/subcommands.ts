import type { Command } from '../command.ts'
import { checkCommand } from './check.ts'
import { gatewayCommand } from './gateway.ts'
import { repairCommand } from './repair.ts'

/** The `dsh-harden mcp <name>` subcommands, one module each. */
export const MCP_SUBCOMMANDS: readonly Command[] = [repairCommand, gatewayCommand, checkCommand]
