/**
 * Profile rows (YAML list items of a DSH user layer, `cordis.patch.yml`) for DSH's own plugins, written the way DSH
 * documents their config. Shared by regress's app rows and bench's session bench, so both mount a server the same way.
 */

/** A stdio MCP server as `@deepseek-ai/dsh-mcp-client` takes it. */
export interface StdioServerRow {
  /** DSH's `serverName`: the `<server>` of the `mcp__<server>__<tool>` names it registers, and the row id's suffix. */
  readonly name: string
  readonly command: string
  readonly args: readonly string[]
  readonly env?: Readonly<Record<string, string>> | undefined
}

/** One `dsh-mcp-client` row for a stdio server (config: serverName, transport, command, args, env). Pure. */
export function mcpClientRow(server: StdioServerRow): string {
  const config = {
    serverName: server.name,
    transport: 'stdio',
    command: server.command,
    args: server.args,
    env: server.env,
  }
  return `    - id: mcp-${server.name}\n      name: '@deepseek-ai/dsh-mcp-client'\n      config: ${JSON.stringify(config)}\n`
}

/** One row loading a plugin module by path, with its config (as JSON, which is YAML). Pure. */
export function pluginPathRow(id: string, file: string, config?: unknown): string {
  const configLine = config === undefined ? '' : `      config: ${JSON.stringify(config)}\n`
  return `    - id: ${id}\n      name: ${JSON.stringify(file)}\n${configLine}`
}
