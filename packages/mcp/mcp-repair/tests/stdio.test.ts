import { packageBin, SEED000_SERVER, SEED000_ZERO_ARG_TOOLS } from '@dsh-harden/mcp-client/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { FAULT_SERVER, STDIO_REPAIR_ENTRY } from '../fixtures/index.ts'
import { RawPeer } from './raw-stdio.ts'

const FS_2025 = packageBin('server-filesystem-2025')
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function sdkClient(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client({ name: 'strict-client', version: '1' })
  cleanups.push(() => client.close())
  await client.connect(transport, { timeout: 600_000 })
  return { client, stderr: () => stderr, transport }
}

const proxied = (...server: string[]) => [STDIO_REPAIR_ENTRY, '--', process.execPath, ...server]

function raw(args: string[]): RawPeer {
  const peer = new RawPeer(process.execPath, args)
  cleanups.push(() => peer.stop())
  return peer
}

describe('mcp repair over stdio, with the official SDK client', () => {
  it('seed 000 fixture: direct listTools fails (control), through the proxy all 76 list, at the same moment', async () => {
    const [direct, proxy] = await Promise.all([
      sdkClient([SEED000_SERVER]),
      sdkClient(proxied(SEED000_SERVER)),
    ])
    const [directList, proxyList] = await Promise.allSettled([
      direct.client.listTools(),
      proxy.client.listTools(),
    ])
    expect(directList.status).toBe('rejected')
    expect(String((directList as PromiseRejectedResult).reason)).toContain('"inputSchema"')
    expect(proxyList.status).toBe('fulfilled')
    const tools = (proxyList as PromiseFulfilledResult<{ tools: { name: string; inputSchema: unknown }[] }>)
      .value.tools
    expect(tools).toHaveLength(76)
    for (const name of SEED000_ZERO_ARG_TOOLS)
      expect(tools.find((t) => t.name === name)?.inputSchema).toEqual({ type: 'object', properties: {} })
    expect(proxy.stderr()).toMatch(
      /repaired 7 of 76 tools: ewelink\/refresh \(inputSchema \(root\) root-empty\)/,
    )
    const called = await proxy.client.callTool({ name: 'auth/platforms', arguments: {} })
    expect(called.content).toEqual([{ type: 'text', text: 'called auth/platforms {}' }])
  }, 600_000)

  it('real server-filesystem@2025.8.21: direct fails, through the proxy all 14 tools list', async () => {
    const root = process.cwd()
    const [direct, proxy] = await Promise.all([sdkClient([FS_2025, root]), sdkClient(proxied(FS_2025, root))])
    await expect(direct.client.listTools()).rejects.toThrow(/inputSchema/)
    const { tools } = await proxy.client.listTools()
    expect(tools).toHaveLength(14)
    expect(proxy.stderr()).toContain('repaired 13 of 14 tools')
  }, 600_000)

  it('copies the bytes of every compliant tool, and forwards a compliant list unchanged', async () => {
    const direct = raw([SEED000_SERVER])
    const proxy = raw(proxied(SEED000_SERVER))
    await Promise.all([direct.initialize(), proxy.initialize()])
    for (const peer of [direct, proxy]) peer.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' })
    const isList = (l: string) => l.includes('"id":7')
    const [before, after] = await Promise.all([direct.line(isList), proxy.line(isList)])
    const listed = JSON.parse(before).result.tools as { name: string; inputSchema: object }[]
    const compliant = listed.filter((t) => Object.keys(t.inputSchema).length > 0)
    expect(compliant).toHaveLength(69)
    for (const tool of compliant) {
      const bytes = before.slice(before.indexOf(`{"name":${JSON.stringify(tool.name)}`))
      const one = bytes.slice(0, bytes.indexOf('}}},') + 3)
      expect(after).toContain(one)
    }
    expect(ListToolsResultSchema.safeParse(JSON.parse(after).result).success).toBe(true)
    // The initialize answer is byte-identical (only tools/list responses are ever rewritten).
    expect(proxy.lines[0]).toBe(direct.lines[0])
  }, 600_000)
})

describe('mcp repair faults (fixture upstream)', () => {
  it('upstream exits mid-call: the exit itself fails the pending call with a JSON-RPC error, not a timer', async () => {
    const { client } = await sdkClient(proxied(FAULT_SERVER))
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('status')
    // The client would wait an hour: only the proxy's answer to the exit (or the closed pipe) can end this call.
    await expect(
      client.callTool({ name: 'crash', arguments: {} }, undefined, { timeout: 3_600_000 }),
    ).rejects.toThrow(/exited \(code 3\) before answering tools\/call|Connection closed/)
  }, 600_000)

  it('upstream exits mid-call: every pending request gets its own error response (raw)', async () => {
    const peer = raw(proxied(FAULT_SERVER))
    await peer.initialize()
    peer.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { delayMs: 2000 } },
    })
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'crash', arguments: {} } })
    const error = JSON.parse(await peer.line((l) => l.includes('"id":1'))) as {
      error: { code: number; message: string }
    }
    expect(error.error.code).toBe(-32000)
    expect(error.error.message).toContain('exited (code 3) before answering tools/call')
    await peer.line((l) => l.includes('"id":2'))
    expect(await peer.closed).toBe(3)
  }, 600_000)

  it('upstream sends malformed JSON: that call fails with a JSON-RPC error, the proxy keeps serving', async () => {
    const { client } = await sdkClient(proxied(FAULT_SERVER))
    await expect(client.callTool({ name: 'malformed', arguments: {} })).rejects.toThrow(/malformed JSON/)
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'still here' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'still here' }])
  }, 600_000)

  it('upstream sends a 10 MB message: it arrives intact', async () => {
    const { client } = await sdkClient(proxied(FAULT_SERVER))
    const result = await client.callTool({ name: 'big', arguments: {} }, undefined, { timeout: 600_000 })
    const text = (result.content as { text: string }[])[0]!.text
    expect(text.length).toBe(10_000_000)
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'after' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'after' }])
  }, 600_000)

  it('a message past the SDK client read buffer (10 MiB) still passes the proxy byte for byte (raw)', async () => {
    const bytes = 12 * 1024 * 1024
    const peer = raw(proxied(FAULT_SERVER))
    await peer.initialize()
    peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'big', arguments: { bytes } } })
    const line = await peer.line((l) => l.endsWith('"id":5}') || l.includes('"id":5,'), 20_000)
    expect(line).toBe(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        result: { content: [{ type: 'text', text: 'x'.repeat(bytes) }] },
      }),
    )
  }, 600_000)

  it('a batch: the tools/list response inside it is repaired, the other responses pass unchanged', async () => {
    const peer = raw(proxied(FAULT_SERVER))
    await peer.initialize()
    peer.send([
      { jsonrpc: '2.0', id: 10, method: 'ping' },
      { jsonrpc: '2.0', id: 11, method: 'tools/list' },
    ])
    const batch = JSON.parse(await peer.line((l) => l.startsWith('['))) as {
      id: number
      result: { tools?: unknown[] }
    }[]
    expect(batch.find((m) => m.id === 10)?.result).toEqual({})
    const tools = batch.find((m) => m.id === 11)!.result.tools as { name: string; inputSchema: unknown }[]
    expect(tools.find((t) => t.name === 'status')?.inputSchema).toEqual({ type: 'object', properties: {} })
    expect(ListToolsResultSchema.safeParse(batch.find((m) => m.id === 11)!.result).success).toBe(true)
  }, 600_000)

  it('1,000 concurrent calls: every response arrives, each to its own request', async () => {
    const { client } = await sdkClient(proxied(FAULT_SERVER))
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => client.callTool({ name: 'echo', arguments: { text: `n${i}` } })),
    )
    results.forEach((result, i) => {
      expect(result.content).toEqual([{ type: 'text', text: `n${i}` }])
    })
  }, 600_000)
})
