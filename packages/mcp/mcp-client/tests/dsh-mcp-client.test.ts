import * as DshMcpClient from '@deepseek-ai/dsh-mcp-client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { packageBin, SEED000_SERVER, SEED000_ZERO_ARG_TOOLS, startEverythingHttp } from '../fixtures/index.ts'
import { installTolerantIntake, loadMcpSdk, TolerantIntake, TolerantMcpClient } from '../src/index.ts'
import { type DshApp, dshApp, logLines, mcpToolNames } from './dsh-app.ts'

const FS_2025 = packageBin('server-filesystem-2025')
const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function stdio(serverName: string, args: string[], env: Record<string, string> = {}) {
  return {
    transport: 'stdio',
    serverName,
    command: process.execPath,
    args,
    env,
    reconnect: { enabled: false },
  }
}

async function load(app: DshApp, plugin: object, config?: unknown) {
  const fiber = app.plugin(plugin as never, config as never)
  cleanups.push(() => fiber.dispose())
  await fiber
  return fiber
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`)
    await new Promise((done) => setTimeout(done, 25))
  }
}

describe("DSH's real @deepseek-ai/dsh-mcp-client (rc.8)", () => {
  it('patches the very SDK instance DSH imports (one deduplicated copy here)', async () => {
    const sdk = await loadMcpSdk()
    expect(sdk.Client).toBe(Client)
  })

  it('stock: the seed 000 fixture (7 tools with inputSchema {}) registers 0 of 76 tools', async () => {
    const app = await dshApp()
    await load(app, DshMcpClient, stdio('feyagate', [SEED000_SERVER]))
    expect(mcpToolNames(app, 'feyagate')).toEqual([])
    expect(logLines(app).join('\n')).toContain('no tools were registered')
  }, 600_000)

  it('TolerantMcpClient: all 76 register, the 7 repaired ones are logged with server, tool, pointer and rule', async () => {
    const app = await dshApp()
    await load(app, TolerantMcpClient, stdio('feyagate', [SEED000_SERVER]))
    expect(mcpToolNames(app, 'feyagate')).toHaveLength(76)
    const logs = logLines(app).join('\n')
    for (const name of SEED000_ZERO_ARG_TOOLS)
      expect(logs).toContain(`mcp-client(feyagate): repaired the inputSchema of tool "${name}": (root):`)
    expect(logs).toContain('76 of 76 listed tools accepted')
    const platforms = app.tools
      .schemas()
      .find((tool) => tool.name.startsWith('mcp__feyagate__auth_platforms'))
    expect(platforms?.parameters).toEqual({ type: 'object', properties: {} })
    // Compliant tools keep their listed schema.
    const first = app.tools.schemas().find((tool) => tool.name.startsWith('mcp__feyagate__miot_list_0_'))
    expect(first?.parameters).toMatchObject({ required: ['device_id'], additionalProperties: false })
  }, 600_000)

  it('a repaired zero-argument tool can be called through DSH', async () => {
    const app = await dshApp()
    await load(app, TolerantMcpClient, stdio('feyagate', [SEED000_SERVER]))
    const name = mcpToolNames(app, 'feyagate').find((n) => n.startsWith('mcp__feyagate__auth_platforms'))!
    const result = (await app.tools
      .get(name)!
      .execute({}, { signal: new AbortController().signal } as never)) as {
      content: { text: string }[]
    }
    expect(result.content[0]?.text).toBe('called auth/platforms {}')
  }, 600_000)

  it('TolerantIntake (global) fixes the stock plugin row too; register is never called with an isolated tool', async () => {
    const app = await dshApp()
    await load(app, TolerantIntake)
    const registered: string[] = []
    const raw = (app.tools as unknown as Record<symbol, { register: (d: { name: string }) => unknown }>)[
      Symbol.for('cordis.original')
    ]!
    const original = raw.register
    raw.register = function (this: unknown, definition: { name: string }) {
      registered.push(definition.name)
      return original.call(this, definition)
    }
    cleanups.push(() => {
      raw.register = original
    })
    const extra = JSON.stringify([
      { name: 'broken/union', inputSchema: { type: ['object', 'null'] } },
      {
        name: 'broken/output',
        inputSchema: { type: 'object', properties: {} },
        outputSchema: { type: 'string' },
      },
    ])
    await load(app, DshMcpClient, stdio('feyagate', [SEED000_SERVER], { FIXTURE_EXTRA_JSON: extra }))
    expect(mcpToolNames(app, 'feyagate')).toHaveLength(77)
    expect(registered.some((name) => name.includes('broken_union'))).toBe(false)
    expect(registered.some((name) => name.includes('broken_output'))).toBe(true)
    const logs = logLines(app).join('\n')
    expect(logs).toMatch(/isolated tool "broken\/union" .*\/type: the root type is a list/)
    expect(logs).toContain('dropped the output schema of tool "broken/output"')
    expect(logs).toContain('77 of 78 listed tools accepted')
  }, 600_000)

  it('real server-filesystem@2025.8.21 (13 of 14 tools list only $schema): stock 0, tolerant 14', async () => {
    const root = process.cwd()
    const stock = await dshApp()
    await load(stock, DshMcpClient, stdio('fs', [FS_2025, root]))
    expect(mcpToolNames(stock, 'fs')).toEqual([])
    const app = await dshApp()
    await load(app, TolerantMcpClient, stdio('fs', [FS_2025, root]))
    expect(mcpToolNames(app, 'fs')).toHaveLength(14)
    expect(logLines(app).filter((line) => line.includes('repaired the inputSchema'))).toHaveLength(13)
  }, 600_000)

  it('follows pagination: every page goes through intake', async () => {
    const app = await dshApp()
    await load(app, TolerantMcpClient, stdio('paged', [SEED000_SERVER], { FIXTURE_PAGE_SIZE: '10' }))
    expect(mcpToolNames(app, 'paged')).toHaveLength(76)
  }, 600_000)

  it('re-syncs on notifications/tools/list_changed through the same tolerant intake', async () => {
    const later = JSON.stringify([
      { name: 'later/zero', inputSchema: {} },
      { name: 'later/ok', inputSchema: { type: 'object', properties: {} } },
    ])
    const env = { FIXTURE_LIST_CHANGED: '1', FIXTURE_LATER_JSON: later }
    const app = await dshApp()
    await load(app, TolerantMcpClient, stdio('live', [SEED000_SERVER], env))
    expect(mcpToolNames(app, 'live')).toHaveLength(77)
    const adder = mcpToolNames(app, 'live').find((n) => n.includes('fixture_add_tools'))!
    await app.tools.get(adder)!.execute({}, { signal: new AbortController().signal } as never)
    await until(() => mcpToolNames(app, 'live').length === 79)
    expect(logLines(app).join('\n')).toContain('repaired the inputSchema of tool "later/zero"')
  }, 600_000)

  it('works over Streamable HTTP against real server-everything, leaving compliant schemas untouched', async () => {
    const server = await startEverythingHttp()
    cleanups.push(() => server.stop())
    const stock = await dshApp()
    await load(stock, DshMcpClient, {
      transport: 'streamable-http',
      serverName: 'ev',
      url: server.url,
      reconnect: { enabled: false },
    })
    const app = await dshApp()
    await load(app, TolerantMcpClient, {
      transport: 'streamable-http',
      serverName: 'ev',
      url: server.url,
      reconnect: { enabled: false },
    })
    const names = mcpToolNames(app, 'ev')
    expect(names.length).toBeGreaterThan(10)
    expect(names).toEqual(mcpToolNames(stock, 'ev'))
    for (const name of names)
      expect(app.tools.get(name)?.parameters).toEqual(stock.tools.get(name)?.parameters)
    expect(logLines(app).join('\n')).not.toContain('repaired')
  }, 600_000)

  it('leaves other SDK clients alone by default, and uninstalling restores Client.prototype.request', async () => {
    expect(Object.hasOwn(Client.prototype, 'request')).toBe(false)
    const uninstall = await installTolerantIntake()
    expect(Object.hasOwn(Client.prototype, 'request')).toBe(true)
    const client = new Client({ name: 'someone-else', version: '1' })
    const transport = new StdioClientTransport({ command: process.execPath, args: [SEED000_SERVER] })
    try {
      await client.connect(transport)
      await expect(client.listTools()).rejects.toThrow(/expected \\"object\\"|expected "object"/)
    } finally {
      await client.close()
      uninstall()
    }
    expect(Object.hasOwn(Client.prototype, 'request')).toBe(false)
  }, 600_000)
})
