import type { Context } from '@deepseek-ai/cordis'
import { rawRequest } from '@dsh-harden/mcp-transport/fixtures'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import ToolContractsWeb, { CONTRACTS_PATH, type ContractsView } from '../src/web/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'
import { askContracts, startDshWeb, started } from './web-dsh-connection.ts'

/**
 * The host half on DSH's real web server and DSH's real connection (`@deepseek-ai/dsh-client-connection` rc.8, the
 * `connection` row of `dsh web`), over a real DSH tool registry with the overlay: the endpoint serves what the
 * overlay decided, read-only, to exactly the requests DSH's own `/api` accepts.
 */
function dispose(servers: { dispose(): unknown }[]) {
  return async () => {
    for (const server of servers.splice(0).reverse()) await server.dispose()
  }
}
afterEach(dispose(started))

async function webApp(trustedHosts: readonly string[] = []): Promise<{ app: Context; port: number }> {
  const runtime = await dshRuntime()
  const port = await startDshWeb(runtime, trustedHosts)
  await runtime.plugin(HardenOverlay)
  await runtime.plugin(ToolContractsWeb)
  return { app: runtime, port }
}

function resultValue(body: string): unknown {
  const reply = JSON.parse(body) as { type: string; rpcId: string; result: { ok: boolean; value?: unknown } }
  expect(reply).toMatchObject({ type: 'server-response', rpcId: 'r1', result: { ok: true } })
  return reply.result.value
}

describe('POST /dsh-harden/tool-contracts on DSH web server and connection', () => {
  it('lists every tool with its verdict and, for a withheld one, each pointer with its rule', async () => {
    const { app, port } = await webApp()
    const stderr = captureStderr()
    try {
      await app.plugin(
        toolPlugin('acme-dsh-tools', tool('acme_lookup', VALID), tool('acme_bare', BARE_TABLE)),
      )
    } finally {
      stderr.restore()
    }
    const reply = await askContracts(port, { host: `127.0.0.1:${port}` })
    expect(reply.status).toBe(200)
    const view = resultValue(reply.body) as ContractsView
    expect(view.counts).toEqual({ withheld: 1, repaired: 0, 'fallback-validator': 0, accepted: 1 })
    expect(view.rows.map((row) => [row.tool, row.source, row.verdict])).toEqual([
      ['acme_bare', 'acme-dsh-tools', 'withheld'],
      ['acme_lookup', 'acme-dsh-tools', 'accepted'],
    ])
    expect(view.rows[0]?.findings).toContainEqual({ pointer: '', rule: 'bare-property-table' })
    expect(view.rows[0]?.repairable).toBe(true)
    // Names, verdicts, pointers and rules only: no schema and no message text leaves the host.
    expect(reply.body).not.toContain('"images"')
    expect(reply.body).not.toContain('"parameters"')
    expect(reply.body).not.toContain('wrap it')
  })

  it('answers { unchanged } for the revision the panel shows, and a new view once a verdict is recorded', async () => {
    const { app, port } = await webApp()
    const first = resultValue((await askContracts(port, { host: `localhost:${port}` })).body) as ContractsView
    const same = await askContracts(port, { host: `localhost:${port}` }, first.revision)
    expect(resultValue(same.body)).toEqual({ unchanged: true, revision: first.revision })
    await app.plugin(toolPlugin('later', tool('later_tool', VALID)))
    const changed = resultValue(
      (await askContracts(port, { host: `localhost:${port}` }, first.revision)).body,
    )
    expect((changed as ContractsView).revision).not.toBe(first.revision)
    expect((changed as ContractsView).rows.map((row) => row.tool)).toContain('later_tool')
  })

  it('is read-only: a GET reads nothing, and a payload that is not { revision } is a bad request', async () => {
    const { port } = await webApp()
    const get = await rawRequest(`http://127.0.0.1:${port}${CONTRACTS_PATH}`, {
      method: 'GET',
      headers: { host: `127.0.0.1:${port}` },
    })
    expect(get.status).toBe(404)
    const body = JSON.stringify({ type: 'client-request', rpcId: 'r1', method: 'tool-contracts', payload: 7 })
    const bad = await rawRequest(`http://127.0.0.1:${port}${CONTRACTS_PATH}`, {
      headers: { host: `127.0.0.1:${port}` },
      body,
    })
    expect(JSON.parse(bad.body).result).toMatchObject({ ok: false, error: { code: 'bad-request' } })
  })

  it('does nothing without DSH connection (a headless profile) and starts serving when one appears', async () => {
    const runtime = await dshRuntime()
    await runtime.plugin(HardenOverlay)
    const fiber = runtime.plugin(ToolContractsWeb)
    await fiber
    expect(fiber.state).toBe(2) // FiberState.ACTIVE: rc.8's boot audit fails a pending row.
    const port = await startDshWeb(runtime)
    expect((await askContracts(port, { host: `127.0.0.1:${port}` })).status).toBe(200)
  })
})

describe('who may read it: exactly whom DSH /api trusts', () => {
  it('serves the deployments rc.8 serves: an SSH forward on another port, a TLS proxy, a host:port entry', async () => {
    const { port } = await webApp(['dsh.example', 'lab.internal:8443'])
    const accepted = [
      // ssh -L 9999:127.0.0.1:<port>: the browser names the forward's port.
      { host: 'localhost:9999', origin: 'http://localhost:9999' },
      // --trusted-host dsh.example behind a TLS reverse proxy: the page is https, the hop to dsh is http.
      { host: 'dsh.example', origin: 'https://dsh.example' },
      // --trusted-host lab.internal:8443: that exact authority.
      { host: 'lab.internal:8443', origin: 'https://lab.internal:8443', 'sec-fetch-site': 'same-origin' },
    ]
    for (const headers of accepted) expect((await askContracts(port, headers)).status, headers.host).toBe(200)
    const refused = [
      { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` },
      { host: 'lab.internal:8444' },
      { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1' },
      { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' },
      { host: `127.0.0.1:${port}`, origin: 'null' },
    ]
    for (const headers of refused) expect((await askContracts(port, headers)).status, headers.host).toBe(403)
  })

  /** Three deployments, each a real `dsh web`-shaped app: loopback only, named hosts, exact authorities. */
  const DEPLOYMENTS = [[], ['dsh.example', '10.0.0.7'], ['dsh.example:8443', 'lab.internal']] as const
  const apps: { port: number }[] = []
  const held: { dispose(): unknown }[] = []
  beforeAll(async () => {
    for (const trusted of DEPLOYMENTS) {
      apps.push(await webApp(trusted))
      held.push(...started.splice(0))
    }
  })
  afterAll(dispose(held))

  const hostname = fc.constantFrom(
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.1.2.3',
    '[::1]',
    'dsh.example',
    'DSH.Example',
    'dsh.example.',
    'lab.internal',
    '10.0.0.7',
    'attacker.example',
    'localhost.attacker.example',
    '0x7f.0.0.1',
  )
  const port = fc.constantFrom('', ':80', ':443', ':8443', ':9999', ':0', ':08443')
  const scheme = fc.constantFrom('http', 'https', 'ws', 'file')
  const origin = fc.oneof(
    fc.constant(undefined),
    fc.constant('null'),
    fc.tuple(scheme, hostname, port).map(([s, h, p]) => `${s}://${h}${p}`),
    fc.constant('not a url'),
  )
  const fetchSite = fc.constantFrom(undefined, 'same-origin', 'same-site', 'cross-site', 'none')

  it('answers 403 exactly where DSH /api does, over Host, Origin, port, scheme and Fetch-Metadata', async () => {
    const seen = { 200: 0, 403: 0 }
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: DEPLOYMENTS.length - 1 }),
        fc.tuple(hostname, port).map(([h, p]) => `${h}${p}`),
        origin,
        fetchSite,
        async (deployment, host, origin, site) => {
          const headers: Record<string, string> = { host }
          if (origin !== undefined) headers.origin = origin
          if (site !== undefined) headers['sec-fetch-site'] = site
          const { port } = apps[deployment]!
          // DSH's own /api route: 403 when its fence refuses, else past it (404: no API proxy in this app).
          const dsh = await askContracts(port, headers, null, '/api/llm.models')
          const ours = await askContracts(port, headers)
          expect(dsh.status === 403 ? 403 : 200).toBe(ours.status)
          seen[ours.status as 200 | 403]++
        },
      ),
      { numRuns: 300 },
    )
    // Both answers were exercised, each many times: the property compares decisions, not one constant.
    expect(seen[200]).toBeGreaterThan(10)
    expect(seen[403]).toBeGreaterThan(10)
  })
})
