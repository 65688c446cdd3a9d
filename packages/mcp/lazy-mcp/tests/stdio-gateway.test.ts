import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { readGatewayConfigFile } from '../src/index.ts'
import { isAlive, TINY_SERVER, tempDir, until } from './servers.ts'

const CLI_BIN = fileURLToPath(new URL('../../../cli/bin/dsh-harden.js', import.meta.url))
const temps: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const remove of temps) await remove()
})

type Text = { content: { type: string; text: string }[]; isError?: boolean }

describe('dsh-harden mcp gateway (standalone stdio MCP server)', () => {
  it('serves the five tools to a strict MCP client from a standard mcpServers file', {
    timeout: 600_000,
  }, async () => {
    const temp = await tempDir()
    temps.push(temp.remove)
    const config = join(temp.dir, '.mcp.json')
    await writeFile(
      config,
      JSON.stringify({
        someOtherClientSetting: true,
        mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } },
      }),
    )
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp', 'gateway', '--config', config],
      env: { PATH: process.env.PATH ?? '', HOME: temp.dir },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'strict-client', version: '1.0.0' })
    await client.connect(transport)
    const gatewayPid = transport.pid!
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'mcp_servers',
      'mcp_tools',
      'mcp_call',
      'mcp_resources',
      'mcp_read_resource',
    ])
    const servers = (await client.callTool({ name: 'mcp_servers', arguments: {} })) as Text
    expect(servers.content[0]?.text).toContain('tiny: lifecycle=lazy state=dormant')
    const call = (await client.callTool({
      name: 'mcp_call',
      arguments: { server: 'tiny', tool: 'echo', arguments: { text: 'via gateway' } },
    })) as Text
    expect(call.content[0]?.text).toBe('echo:via gateway')
    const failed = (await client.callTool({
      name: 'mcp_call',
      arguments: { server: 'tiny', tool: 'fail' },
    })) as Text
    expect(failed.isError).toBe(true)
    expect(failed.content[0]?.text).toMatch(/^\[delivery=server_error\]/)
    const listing = (await client.callTool({ name: 'mcp_servers', arguments: {} })) as Text
    expect(listing.content[0]?.text).toContain('state=ready')
    await client.close()
    expect(await until(() => !isAlive(gatewayPid))).toBeGreaterThanOrEqual(0)
  })

  it('reads the native configuration, and refuses a file that is neither', async () => {
    const temp = await tempDir()
    temps.push(temp.remove)
    const native = join(temp.dir, 'native.json')
    await writeFile(native, JSON.stringify({ idleDisconnectMs: 5000, servers: [] }))
    expect(await readGatewayConfigFile(native)).toEqual({ idleDisconnectMs: 5000, servers: [] })
    const other = join(temp.dir, 'other.json')
    await writeFile(other, JSON.stringify({ hello: 1 }))
    await expect(readGatewayConfigFile(other)).rejects.toThrow(/neither a lazy-mcp configuration/)
  })
})
