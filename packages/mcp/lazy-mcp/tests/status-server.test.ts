import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type GatewayStatusSnapshot,
  LazyMcpGateway,
  STATUS_BODY_LIMIT,
  startStatusServer,
} from '../src/index.ts'
import { tempDir, tiny, until } from './servers.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(options: { panel?: boolean } = {}) {
  const temp = await tempDir()
  cleanups.push(temp.remove)
  const cachePath = join(temp.dir, 'lazy-mcp', 'tool-cache.json')
  const gateway = new LazyMcpGateway({
    servers: [tiny('follows'), tiny('own', { idleDisconnectMs: 60_000 })],
    cachePath,
    idleDisconnectMs: 60_000,
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
  return { gateway, url: server.url, settings: join(temp.dir, 'lazy-mcp', 'settings.json'), cachePath }
}

const state = (url: string, init?: RequestInit) => fetch(`${url}/lazy-mcp/state`, init)
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  state(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
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
    timeout: 20_000,
  }, async () => {
    const { gateway, url, settings, cachePath } = await setup()
    await gateway.call('follows', 'echo', {})
    await gateway.call('own', 'echo', {})
    const response = await post(url, JSON.stringify({ idleDisconnectMs: 1000 }))
    expect(response.status).toBe(200)
    expect(((await response.json()) as GatewayStatusSnapshot).idleOverride).toBe(true)
    expect(await exists(settings)).toBe(true)
    expect(gateway.detail('follows').idleDeadline! - Date.now()).toBeLessThanOrEqual(1000)
    expect(gateway.detail('own').idleDeadline! - Date.now()).toBeGreaterThan(30_000) // explicit: untouched
    expect(
      await until(() => gateway.detail('follows').state === 'dormant', 1000 + 2000),
    ).toBeGreaterThanOrEqual(0)
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
    expect((await fetch(`${withPanel.url}/lazy-mcp/..%2f..%2fpackage.json`)).status).toBe(404)
    expect(await (await fetch(`${withPanel.url}/lazy-mcp/extra`)).text()).toBe('extra GET')
    const without = await setup()
    expect((await fetch(`${without.url}/lazy-mcp/`)).status).toBe(404)
  })
})
