import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { rawRequest } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type GatewayStatusSnapshot,
  LazyMcpGateway,
  STATUS_BODY_LIMIT,
  startStatusServer,
} from '../src/index.ts'
import { ManualClock } from '../src/testing/index.ts'
import { tempDir, tiny, until } from './servers.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(options: { panel?: boolean } = {}) {
  const temp = await tempDir()
  cleanups.push(temp.remove)
  const cachePath = join(temp.dir, 'lazy-mcp', 'tool-cache.json')
  const clock = new ManualClock()
  const gateway = new LazyMcpGateway({
    servers: [tiny('follows'), tiny('own', { idleDisconnectMs: 60_000 })],
    cachePath,
    idleDisconnectMs: 60_000,
    clock,
  })
  cleanups.push(() => gateway.dispose())
  await gateway.start()
  const panelDir = join(temp.dir, 'panel')
  if (options.panel) {
    await mkdir(panelDir, { recursive: true })
    await writeFile(join(panelDir, 'index.html'), '<!doctype html><title>panel</title>')
    await writeFile(join(panelDir, 'app.js'), 'export {}')
  }
  const server = await startStatusServer(gateway, {
    panelDir,
    extraRoutes: [
      (request, response, url) => {
        if (url.pathname !== '/lazy-mcp/extra') return false
        response.end(`extra ${request.method}`)
        return true
      },
    ],
  })
  cleanups.push(() => server.close())
  tokens.set(server.url, server.token)
  return {
    gateway,
    clock,
    server,
    url: server.url,
    settings: join(temp.dir, 'lazy-mcp', 'settings.json'),
    cachePath,
  }
}

/** Each server's token by URL, so the helpers below authenticate like a program holding the printed token. */
const tokens = new Map<string, string>()
const state = (url: string, init: RequestInit = {}) =>
  fetch(`${url}/lazy-mcp/state`, {
    ...init,
    headers: { authorization: `Bearer ${tokens.get(url)}`, ...(init.headers as Record<string, string>) },
  })
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  state(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })

/** A raw HTTP request with exactly these headers; GET unless told otherwise. */
const raw = (
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) => rawRequest(url, { method: 'GET', path, ...options })

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

describe('status server', () => {
  it('GET returns the snapshot and never wakes a server; no command or env in it', async () => {
    const { gateway, url } = await setup()
    const response = await state(url)
    expect(response.status).toBe(200)
    const snapshot = (await response.json()) as GatewayStatusSnapshot
    expect(snapshot.servers.map((server) => [server.name, server.state])).toEqual([
      ['follows', 'dormant'],
      ['own', 'dormant'],
    ])
    expect(snapshot).toMatchObject({ idleDisconnectMs: 60_000, idleOverride: false })
    expect(snapshot.servers[1]).toMatchObject({ idleDisconnectMs: 60_000, idleDisconnectMsExplicit: true })
    expect(JSON.stringify(snapshot)).not.toContain('tiny-server')
    expect(gateway.detail('follows').attempts).toBe(0)
  })

  it('POST sets, persists and applies the window to ready servers that follow it; DELETE restores', {
    timeout: 600_000,
  }, async () => {
    const { gateway, clock, url, settings, cachePath } = await setup()
    await gateway.call('follows', 'echo', {})
    await gateway.call('own', 'echo', {})
    const response = await post(url, JSON.stringify({ idleDisconnectMs: 1000 }))
    expect(response.status).toBe(200)
    expect(((await response.json()) as GatewayStatusSnapshot).idleOverride).toBe(true)
    expect(await exists(settings)).toBe(true)
    // The manual clock has not moved since the calls: the new window runs from now, the explicit one is untouched.
    expect(gateway.detail('follows').idleDeadline).toBe(clock.now() + 1000)
    expect(gateway.detail('own').idleDeadline).toBe(clock.now() + 60_000)
    clock.advance(1000)
    expect(await until(() => gateway.detail('follows').state === 'dormant')).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('own').state).toBe('ready')

    // The override survives a restart (a new gateway over the same cache directory).
    const again = new LazyMcpGateway({ servers: [tiny('follows')], cachePath, idleDisconnectMs: 60_000 })
    await again.start()
    expect(again.snapshot()).toMatchObject({ idleDisconnectMs: 1000, idleOverride: true })
    await again.dispose()

    const cleared = await state(url, { method: 'DELETE' })
    expect(cleared.status).toBe(200)
    expect(((await cleared.json()) as GatewayStatusSnapshot).idleOverride).toBe(false)
    expect(await exists(settings)).toBe(false) // "no override" is the file's absence
    expect(gateway.snapshot().idleDisconnectMs).toBe(60_000)
  })

  it('validates before any write: size limit, JSON, shape, range, origin, method', async () => {
    const { url, settings, gateway } = await setup()
    const big = JSON.stringify({ idleDisconnectMs: 5000, pad: 'x'.repeat(STATUS_BODY_LIMIT) })
    for (const [body, status] of [
      [big, 413],
      ['{ not json', 400],
      ['[1000]', 400],
      [JSON.stringify({ idleDisconnectMs: 5 }), 400],
      [JSON.stringify({ idleDisconnectMs: 1.5e3 + 0.5 }), 400],
      [JSON.stringify({ idleDisconnectMs: 2 ** 31 }), 400],
      [JSON.stringify({ idleDisconnectMs: 5000, other: 1 }), 400],
      [JSON.stringify({ idleDisconnectMs: '5000' }), 400],
    ] as const) {
      const response = await post(url, body)
      expect(response.status, body.slice(0, 40)).toBe(status)
      expect(((await response.json()) as { error: string }).error).toBeTruthy()
    }
    const foreign = await post(url, JSON.stringify({ idleDisconnectMs: 5000 }), {
      origin: 'http://evil.example',
    })
    expect(foreign.status).toBe(403)
    expect((await state(url, { method: 'PUT', body: '{}' })).status).toBe(405)
    expect(await exists(settings)).toBe(false)
    expect(gateway.snapshot().idleOverride).toBe(false)
  })

  it('serves the panel files when present, 404 otherwise, and never outside the panel directory', async () => {
    const withPanel = await setup({ panel: true })
    const index = await fetch(`${withPanel.url}/lazy-mcp/`)
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toContain('text/html')
    expect(await index.text()).toContain('panel')
    expect((await fetch(`${withPanel.url}/lazy-mcp/app.js`)).headers.get('content-type')).toContain(
      'javascript',
    )
    expect((await fetch(`${withPanel.url}/lazy-mcp/%2e%2e%2fsettings.json`)).status).toBe(404)
    // Malformed paths are the client's mistake (400), never a crash (500).
    for (const path of ['/lazy-mcp/%E0%A4%A', '/lazy-mcp/%', '/lazy-mcp/a%00b'])
      expect((await fetch(`${withPanel.url}${path}`)).status, path).toBe(400)
    expect((await fetch(`${withPanel.url}/lazy-mcp/..%2f..%2fpackage.json`)).status).toBe(404)
    expect(await (await fetch(`${withPanel.url}/lazy-mcp/extra`)).text()).toBe('extra GET')
    const without = await setup()
    expect((await fetch(`${without.url}/lazy-mcp/`)).status).toBe(404)
  })

  it('refuses forged Host and Origin pairs before anything is read or written', async () => {
    const { url, server, settings } = await setup()
    const port = new URL(url).port
    const auth = { authorization: `Bearer ${server.token}` }
    const body = JSON.stringify({ idleDisconnectMs: 5000 })
    const cases: [string, Record<string, string>, number][] = [
      ['loopback host, no origin', { host: `127.0.0.1:${port}` }, 200],
      ['localhost name', { host: `localhost:${port}`, origin: `http://localhost:${port}` }, 200],
      // DNS rebinding: the page's origin and the Host header agree, and both name the attacker.
      ['rebinding', { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` }, 403],
      ['rebinding, no origin', { host: `attacker.example:${port}` }, 403],
      ['other port', { host: `127.0.0.1:1` }, 403],
      ['foreign origin', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, 403],
      ['null origin', { host: `127.0.0.1:${port}`, origin: 'null' }, 403],
      ['other local port', { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1' }, 403],
      ['https origin', { host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` }, 403],
      ['userinfo host', { host: `evil@127.0.0.1:${port}` }, 403],
    ]
    for (const [what, headers, status] of cases) {
      const read = await raw(url, '/lazy-mcp/state', { headers: { ...headers, ...auth } })
      expect(read.status, `GET ${what}`).toBe(status)
      const write = await raw(url, '/lazy-mcp/state', {
        method: 'POST',
        headers: { ...headers, ...auth, 'content-type': 'application/json' },
        body,
      })
      expect(write.status, `POST ${what}`).toBe(status)
      if (status === 403) {
        expect(write.body).toMatch(/Host|Origin/)
        expect(write.body).not.toContain('servers')
      }
      await raw(url, '/lazy-mcp/state', { method: 'DELETE', headers: { host: `127.0.0.1:${port}`, ...auth } })
    }
    expect(await exists(settings)).toBe(false)
  })

  it("the state needs this start's token; the printed panel URL turns it into a same-site cookie", async () => {
    const { url, server, gateway } = await setup({ panel: true })
    const host = { host: new URL(url).host }
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await raw(url, '/lazy-mcp/state', {
        method,
        headers: host,
        ...(method === 'POST' ? { body: '{}' } : {}),
      })
      expect(response.status, method).toBe(401)
      expect(response.body).toContain('token')
    }
    const wrong = await raw(url, '/lazy-mcp/state', {
      headers: { ...host, authorization: `Bearer ${'x'.repeat(server.token.length)}` },
    })
    expect(wrong.status).toBe(401)
    expect(gateway.snapshot().idleOverride).toBe(false)

    expect(server.panelUrl).toBe(`${url}/lazy-mcp/?token=${server.token}`)
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const bootstrap = await raw(url, `/lazy-mcp/?token=${server.token}&poll=500`, { headers: host })
    expect(bootstrap.status).toBe(303)
    expect(bootstrap.headers.location).toBe('/lazy-mcp/?poll=500')
    const cookie = String(bootstrap.headers['set-cookie'])
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const pair = cookie.split(';')[0]!
    const withCookie = await raw(url, '/lazy-mcp/state', { headers: { ...host, cookie: pair } })
    expect(withCookie.status).toBe(200)
    expect(JSON.parse(withCookie.body)).toHaveProperty('servers')
    expect((await raw(url, '/lazy-mcp/?token=nope', { headers: host })).status).toBe(401)
    // The cookie does not help a request from another origin.
    const crossSite = await raw(url, '/lazy-mcp/state', {
      method: 'DELETE',
      headers: { ...host, cookie: pair, origin: 'http://evil.example' },
    })
    expect(crossSite.status).toBe(403)
  })

  it('listening on a non-loopback address needs the explicit flag, and warns', async () => {
    const gateway = new LazyMcpGateway({ servers: [], cachePath: join((await tempDir()).dir, 'c.json') })
    cleanups.push(() => gateway.dispose())
    await expect(startStatusServer(gateway, { listen: '0.0.0.0:0' })).rejects.toThrow(
      /not a loopback address.*statusAllowNonLoopback/,
    )
    const warnings: string[] = []
    const open = await startStatusServer(gateway, {
      listen: '0.0.0.0:0',
      allowNonLoopback: true,
      warn: (line) => warnings.push(line),
    })
    cleanups.push(() => open.close())
    expect(warnings).toEqual([expect.stringMatching(/reachable from other machines/)])
    // Still only names this machine is reached by: a rebinding host is refused on a wildcard bind too.
    const port = new URL(open.url).port
    const refused = await raw(`http://127.0.0.1:${port}`, '/lazy-mcp/state', {
      headers: { host: `attacker.example:${port}`, authorization: `Bearer ${open.token}` },
    })
    expect(refused.status).toBe(403)
  })
})
