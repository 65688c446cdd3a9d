import { startEverythingHttp } from '@dsh-harden/mcp-client/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startSeed000Http } from '../fixtures/index.ts'
import { startHttpRepair } from '../src/index.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function connect(url: string) {
  const client = new Client({ name: 'strict-client', version: '1' })
  cleanups.push(() => client.close())
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 600_000 })
  return client
}

async function facade(
  upstream: string,
  bounds: { connectTimeoutMs?: number; requestTimeoutMs?: number } = {},
) {
  const lines: string[] = []
  const repair = await startHttpRepair({ upstream, log: (line) => lines.push(line), ...bounds })
  cleanups.push(() => repair.close())
  return { repair, lines }
}

describe('mcp repair as a Streamable HTTP facade', () => {
  it.each([
    ['SSE', false],
    ['JSON', true],
  ])(
    'seed 000 fixture (%s responses): direct listTools fails (control), through the facade all 76 list',
    async (_kind, json) => {
      const upstream = await startSeed000Http(json)
      cleanups.push(() => upstream.stop())
      const { repair, lines } = await facade(upstream.url)
      const [direct, proxied] = await Promise.all([connect(upstream.url), connect(repair.url)])
      const [before, after] = await Promise.allSettled([direct.listTools(), proxied.listTools()])
      expect(before.status).toBe('rejected')
      expect(after.status === 'fulfilled' && after.value.tools.length).toBe(76)
      expect(lines.filter((l) => l.startsWith('repaired 7 of 76 tools'))).toHaveLength(1)
      const called = await proxied.callTool({ name: 'auth/platforms', arguments: {} })
      expect(called.content).toEqual([{ type: 'text', text: 'called auth/platforms' }])
    },
    30_000,
  )

  it('in front of real server-everything: the same tools and results as direct, nothing repaired', async () => {
    const upstream = await startEverythingHttp()
    cleanups.push(() => upstream.stop())
    const { repair, lines } = await facade(upstream.url)
    const [direct, proxied] = await Promise.all([connect(upstream.url), connect(repair.url)])
    const [a, b] = await Promise.all([direct.listTools(), proxied.listTools()])
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools))
    const echo = await proxied.callTool({ name: 'echo', arguments: { message: 'hi' } })
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }])
    expect(lines.filter((l) => l.startsWith('repaired'))).toEqual([])
  }, 600_000)

  it('upstream gone: the refused connection itself answers with a JSON-RPC error (HTTP 502), not a timer', async () => {
    const upstream = await startSeed000Http(true)
    // Every bound of the facade and the client is an hour: if anything but the refused connection answered, this
    // test would run into its own timeout instead.
    const hour = 3_600_000
    const { repair } = await facade(upstream.url, { connectTimeoutMs: hour, requestTimeoutMs: hour })
    const client = await connect(repair.url)
    await upstream.stop()
    await expect(client.listTools(undefined, { timeout: hour })).rejects.toThrow(
      /502|upstream MCP server failed/,
    )
    const response = await fetch(repair.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    })
    expect(response.status).toBe(502)
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32000 } })
  }, 600_000)
})
