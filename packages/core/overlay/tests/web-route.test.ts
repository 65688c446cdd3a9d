import type { Context } from '@deepseek-ai/cordis'
import { type RawResponse, rawRequest } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import ToolContractsWeb, { CONTRACTS_PATH, type ContractsView } from '../src/web/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

/**
 * The host half on DSH's real web server (`@deepseek-ai/dsh-host-webserver` rc.8, the `webServer` service `dsh web`
 * mounts) and a real DSH tool registry with the overlay: the route serves what the overlay decided, read-only, to
 * requests that name this server, and to nobody else.
 */
/** One request with exactly these headers (mcp-transport's fixture: `fetch` would not let a test forge `Host`). */
function send(port: number, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return rawRequest(`http://127.0.0.1:${port}${CONTRACTS_PATH}`, { method, headers })
}

/** The web server fibers started by a test: disposing one closes its listening socket. */
const servers: { dispose(): unknown }[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.dispose()
})

async function startWebServer(runtime: Context): Promise<number> {
  const WebServer = (await import('@deepseek-ai/dsh-host-webserver')).default
  const fiber = runtime.plugin(WebServer, { host: '127.0.0.1', port: 0 })
  servers.push(fiber)
  await fiber
  return (runtime as unknown as { webServer: { port: number } }).webServer.port
}

async function webApp(): Promise<{ app: Context; port: number }> {
  const runtime = await dshRuntime()
  const port = await startWebServer(runtime)
  await runtime.plugin(HardenOverlay)
  await runtime.plugin(ToolContractsWeb)
  return { app: runtime, port }
}

describe('GET /dsh-harden/tool-contracts on the real DSH web server', () => {
  it('lists every tool with its verdict and, for a withheld one, the pointer, the reason and the fix', async () => {
    const { app, port } = await webApp()
    const stderr = captureStderr()
    try {
      await app.plugin(
        toolPlugin('acme-dsh-tools', tool('acme_lookup', VALID), tool('acme_bare', BARE_TABLE)),
      )
    } finally {
      stderr.restore()
    }
    const reply = await send(port, { host: `127.0.0.1:${port}` })
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8')
    const view = JSON.parse(reply.body) as ContractsView
    expect(view.counts).toEqual({ withheld: 1, repaired: 0, 'fallback-validator': 0, accepted: 1 })
    expect(view.rows.map((row) => [row.tool, row.source, row.verdict])).toEqual([
      ['acme_bare', 'acme-dsh-tools', 'withheld'],
      ['acme_lookup', 'acme-dsh-tools', 'accepted'],
    ])
    expect(view.rows[0]?.findings).toEqual([
      expect.objectContaining({ pointer: '', hint: expect.stringContaining('wrap it') }),
    ])
    // Names, verdicts and reasons only: no schema leaves the host.
    expect(reply.body).not.toContain('"images"')
    expect(reply.body).not.toContain('"parameters"')
  })

  it('answers 304 while nothing changed, and a new ETag once a verdict is recorded', async () => {
    const { app, port } = await webApp()
    const first = await send(port, { host: `localhost:${port}` })
    const etag = String(first.headers.etag)
    expect((await send(port, { host: `localhost:${port}`, 'if-none-match': etag })).status).toBe(304)
    await app.plugin(toolPlugin('later', tool('later_tool', VALID)))
    const changed = await send(port, { host: `localhost:${port}`, 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.etag).not.toBe(etag)
    expect((JSON.parse(changed.body) as ContractsView).rows.map((row) => row.tool)).toContain('later_tool')
  })

  it('refuses a DNS-rebinding Host, a foreign Origin and a cross-site fetch before reading anything', async () => {
    const { port } = await webApp()
    const rebound = await send(port, {
      host: `attacker.example:${port}`,
      origin: `http://attacker.example:${port}`,
    })
    expect(rebound.status).toBe(403)
    expect(JSON.parse(rebound.body).error).toContain('DNS rebinding')
    const otherPort = await send(port, { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port + 1}` })
    expect(otherPort.status).toBe(403)
    const crossSite = await send(port, { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBe(403)
    const sameOrigin = await send(port, { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })
    expect(sameOrigin.status).toBe(200)
  })

  it('is read-only: any other method is a 405 naming the allowed ones', async () => {
    const { port } = await webApp()
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const reply = await send(port, { host: `127.0.0.1:${port}` }, method)
      expect(reply.status).toBe(405)
      expect(reply.headers.allow).toBe('GET, HEAD')
    }
  })

  it('does nothing without a web server (a headless profile) and starts serving when one appears', async () => {
    const runtime = await dshRuntime()
    await runtime.plugin(HardenOverlay)
    const fiber = runtime.plugin(ToolContractsWeb)
    await fiber
    expect(fiber.state).toBe(2) // FiberState.ACTIVE: rc.8's boot audit fails a pending row.
    const port = await startWebServer(runtime)
    expect((await send(port, { host: `127.0.0.1:${port}` })).status).toBe(200)
  })
})
