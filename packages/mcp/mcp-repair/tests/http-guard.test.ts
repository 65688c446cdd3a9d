import { startEverythingHttp } from '@dsh-harden/mcp-client/fixtures'
import { rawRequest } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpRepair } from '../src/index.ts'
import { answer, startRawUpstream } from './raw-http-upstream.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
})

async function facadeOverRaw() {
  const upstream = await startRawUpstream((message, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(answer(message.id, { ok: true }))
  })
  cleanups.push(() => upstream.close())
  const lines: string[] = []
  const repair = await startHttpRepair({ upstream: upstream.url, log: (line) => lines.push(line) })
  cleanups.push(() => repair.close())
  return { upstream, repair, lines, port: repair.port }
}

describe('repair facade: DNS rebinding and request hygiene', () => {
  it('forged Host/Origin pairs are refused before the upstream sees anything', async () => {
    const { upstream, repair, port } = await facadeOverRaw()
    const cases: [string, Record<string, string>, number][] = [
      ['loopback, no origin', { host: `127.0.0.1:${port}` }, 200],
      ['localhost with its origin', { host: `localhost:${port}`, origin: `http://localhost:${port}` }, 200],
      ['[::1]', { host: `[::1]:${port}` }, 200],
      ['rebinding', { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` }, 403],
      ['rebinding, no origin', { host: `attacker.example:${port}` }, 403],
      ['loopback host, foreign origin', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, 403],
      ['loopback host, other port origin', { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:9' }, 403],
      ['wrong port', { host: '127.0.0.1:9' }, 403],
      ['garbage host', { host: 'a b' }, 403],
    ]
    for (const [what, headers, status] of cases) {
      const before = upstream.seen.length
      const response = await rawRequest(repair.url, { headers, body: initialize })
      expect(response.status, what).toBe(status)
      if (status === 403) {
        expect(upstream.seen.length, what).toBe(before)
        expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { message: /Host|Origin/ } })
      }
    }
  })

  it('the upstream gets its own Host and Origin (its own rebinding check still holds), never the client’s', async () => {
    const { upstream, repair, port } = await facadeOverRaw()
    await rawRequest(repair.url, {
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      body: initialize,
    })
    const upstreamUrl = new URL(upstream.url)
    expect(upstream.seen.at(-1)?.headers.host).toBe(upstreamUrl.host)
    expect(upstream.seen.at(-1)?.headers.origin).toBe(upstreamUrl.origin)
  })

  it('a malformed path is a 400, another path a 404; neither reaches the upstream', async () => {
    const { upstream, repair } = await facadeOverRaw()
    for (const [path, status] of [
      ['/mcp%E0%A4%A', 400],
      ['/%', 400],
      ['/other', 404],
      ['/mcp/../admin', 404],
    ] as const) {
      const response = await rawRequest(repair.url, { path, body: initialize })
      expect(response.status, path).toBe(status)
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: {} })
    }
    expect(upstream.seen).toEqual([])
  })

  it('binding to a non-loopback address needs the explicit flag, and says so', async () => {
    const { upstream } = await facadeOverRaw()
    await expect(startHttpRepair({ upstream: upstream.url, host: '0.0.0.0' })).rejects.toThrow(
      /not a loopback address.*--allow-non-loopback/,
    )
    const lines: string[] = []
    const open = await startHttpRepair({
      upstream: upstream.url,
      host: '0.0.0.0',
      allowNonLoopback: true,
      log: (line) => lines.push(line),
    })
    cleanups.push(() => open.close())
    expect(lines).toEqual([expect.stringMatching(/reachable from other machines/)])
    const rebound = await rawRequest(`http://127.0.0.1:${open.port}/mcp`, {
      headers: { host: `attacker.example:${open.port}` },
      body: initialize,
    })
    expect(rebound.status).toBe(403)
  })

  it('in front of real server-everything: the rebinding request is refused, the local one initializes', async () => {
    const upstream = await startEverythingHttp()
    cleanups.push(() => upstream.stop())
    const repair = await startHttpRepair({ upstream: upstream.url, log: () => {} })
    cleanups.push(() => repair.close())
    const evil = await rawRequest(repair.url, {
      headers: { host: 'evil.example.com', origin: 'http://evil.example.com' },
      body: initialize,
    })
    expect(evil.status).toBe(403)
    const host = new URL(repair.url).host
    const good = await rawRequest(repair.url, {
      headers: { host, origin: `http://${host}` },
      body: initialize,
    })
    expect(good.status).toBe(200)
    expect(good.body).toContain('"serverInfo"')
  }, 600_000)
})
