import { CANARY_MARK, SECRET_CANARIES } from '@dsh-harden/mcp-transport/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DeliveryError, GATEWAY_TOOLS, LazyMcpGateway, type ServerConfig } from '../src/index.ts'
import { ManualClock } from '../src/testing/index.ts'
import { everything, freePort, isAlive, startEverythingHttp, tempDir, until } from './servers.ts'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function gatewayOf(
  servers: ServerConfig[],
  options: { idle?: number; parentEnv?: Record<string, string | undefined>; clock?: ManualClock } = {},
) {
  const temp = await tempDir()
  const gateway = new LazyMcpGateway({
    servers,
    cachePath: `${temp.dir}/tool-cache.json`,
    idleDisconnectMs: options.idle ?? 60_000,
    parentEnv: options.parentEnv,
    clock: options.clock,
  })
  cleanups.push(temp.remove, () => gateway.dispose())
  await gateway.start()
  return gateway
}

const tool = (name: string) => GATEWAY_TOOLS.find((candidate) => candidate.name === name)!

describe('server-everything over stdio', () => {
  it('no canary secret in the parent reaches the real server; passEnv and its own env do', {
    timeout: 600_000,
  }, async () => {
    const gateway = await gatewayOf(
      [
        everything('everything', {
          env: { GIVEN_API_KEY: 'given-on-purpose' },
          passEnv: ['LAZY_MCP_PLAIN'],
        }),
      ],
      {
        parentEnv: {
          ...process.env,
          ...SECRET_CANARIES,
          LAZY_MCP_PLAIN: 'plain-visible',
          LAZY_MCP_UNLISTED: 'not-passed',
        },
      },
    )
    const env = JSON.parse(await gateway.call('everything', 'get-env', {})) as Record<string, string>
    expect(env.LAZY_MCP_PLAIN).toBe('plain-visible')
    expect(env.GIVEN_API_KEY).toBe('given-on-purpose')
    expect(env.LAZY_MCP_UNLISTED).toBeUndefined()
    for (const name of Object.keys(SECRET_CANARIES)) expect(env[name], name).toBeUndefined()
    expect(JSON.stringify(env)).not.toContain(CANARY_MARK)
  })

  it('text-only results: images become explicit markers; resources list, read, blobs as size hints', {
    timeout: 600_000,
  }, async () => {
    const gateway = await gatewayOf([everything()])
    const image = await tool('mcp_call').run(gateway, {
      server: 'everything',
      tool: 'get-tiny-image',
      arguments: {},
    })
    expect(image).toMatch(/\[image omitted: image\/png, \d+ base64 characters\]/)
    const resources = await tool('mcp_resources').run(gateway, { server: 'everything' })
    expect(resources).toContain('demo://resource/dynamic/text/{resourceId}')
    const text = await tool('mcp_read_resource').run(gateway, {
      server: 'everything',
      uri: 'demo://resource/dynamic/text/7',
    })
    expect(text.startsWith('demo://resource/dynamic/text/7')).toBe(true)
    const blob = await tool('mcp_read_resource').run(gateway, {
      server: 'everything',
      uri: 'demo://resource/dynamic/blob/42',
    })
    expect(blob).toMatch(/\[binary resource: \d+ base64 characters; available to programmatic callers\]/)
    // Arguments sent as JSON text (strict model routes encode open objects) are read back as the object.
    expect(
      await tool('mcp_call').run(gateway, {
        server: 'everything',
        tool: 'echo',
        arguments: '{"message":"hi"}',
      }),
    ).toBe('Echo: hi')
    expect(gateway.detail('everything')).toMatchObject({ connections: 1, attempts: 1 })
  })

  it('server_error: invalid arguments are answered by the server', { timeout: 600_000 }, async () => {
    const gateway = await gatewayOf([everything()])
    const error = await gateway
      .call('everything', 'get-sum', { a: 'one' })
      .catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(DeliveryError)
    expect((error as DeliveryError).delivery).toBe('server_error')
    expect(gateway.detail('everything').state).toBe('ready')
  })
})

describe('server-everything over Streamable HTTP', () => {
  let http: Awaited<ReturnType<typeof startEverythingHttp>>
  beforeAll(async () => {
    http = await startEverythingHttp()
  }, 600_000)
  afterAll(async () => {
    await http?.stop()
  })

  const remote = (name = 'remote', extra: Partial<ServerConfig> = {}): ServerConfig =>
    ({
      name,
      transport: 'streamable-http',
      lifecycle: 'lazy',
      url: http.url,
      headers: {},
      ...extra,
    }) as ServerConfig

  it('lazy connect on first call, idle release one window after it (manual clock), reconnect on the next call', {
    timeout: 600_000,
  }, async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf([remote()], { idle: 1000, clock })
    expect(gateway.detail('remote')).toMatchObject({ state: 'dormant', attempts: 0 })
    expect(await gateway.call('remote', 'echo', { message: 'over http' })).toBe('Echo: over http')
    expect(gateway.detail('remote')).toMatchObject({ state: 'ready', connections: 1 })
    expect(gateway.detail('remote').idleDeadline).toBe(clock.now() + 1000)
    clock.advance(999)
    expect(gateway.detail('remote').state).toBe('ready')
    clock.advance(1)
    expect(await until(() => gateway.detail('remote').state === 'dormant')).toBeGreaterThanOrEqual(0)
    // Released before the cache write landed, the list is served from memory until it does; then from the cache.
    expect(await until(() => gateway.detail('remote').tools.source === 'cache')).toBeGreaterThanOrEqual(0)
    expect((await gateway.listTools('remote'))?.source).toBe('cache')
    expect(await gateway.call('remote', 'echo', { message: 'again' })).toBe('Echo: again')
    expect(gateway.detail('remote')).toMatchObject({ connections: 2, releases: 1 })
  })

  it('not_sent when nothing listens on the port', { timeout: 600_000 }, async () => {
    const port = await freePort()
    const gateway = await gatewayOf([
      {
        name: 'closed',
        transport: 'streamable-http',
        lifecycle: 'lazy',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: {},
      },
    ])
    const error = await gateway.call('closed', 'echo', {}).catch((failure: unknown) => failure)
    expect((error as DeliveryError).delivery).toBe('not_sent')
    expect(gateway.detail('closed').lastError).toBeDefined()
  })

  it('eager over HTTP connects in the background; dispose closes every connection', {
    timeout: 600_000,
  }, async () => {
    const gateway = await gatewayOf([remote('hot', { lifecycle: 'eager' }), everything('local')])
    expect(await until(() => gateway.detail('hot').state === 'ready')).toBeGreaterThanOrEqual(0)
    await gateway.call('local', 'echo', { message: 'x' })
    const pid = gateway.detail('local').pid!
    await gateway.dispose()
    expect(gateway.detail('hot').state).toBe('dormant')
    expect(await until(() => !isAlive(pid))).toBeGreaterThanOrEqual(0)
  })
})
