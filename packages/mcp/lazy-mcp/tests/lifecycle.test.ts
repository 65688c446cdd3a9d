import { afterEach, describe, expect, it } from 'vitest'
import { DeliveryError, LazyMcpGateway, type ServerConfig } from '../src/index.ts'
import { ManualClock } from '../src/testing/index.ts'
import { isAlive, sleep, tempDir, tiny, until } from './servers.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function gatewayOf(
  servers: ServerConfig[],
  options: { idle?: number; callTimeoutMs?: number; clock?: ManualClock } = {},
) {
  const temp = await tempDir()
  const gateway = new LazyMcpGateway({
    servers,
    cachePath: `${temp.dir}/tool-cache.json`,
    idleDisconnectMs: options.idle ?? 60_000,
    callTimeoutMs: options.callTimeoutMs,
    connectTimeoutMs: 10_000,
    clock: options.clock,
  })
  cleanups.push(temp.remove, () => gateway.dispose())
  await gateway.start()
  return gateway
}

async function failure(work: Promise<unknown>): Promise<DeliveryError> {
  try {
    await work
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryError)
    return error as DeliveryError
  }
  throw new Error('expected the call to fail')
}

describe('lifecycle', () => {
  it('lazy: activation starts nothing; the first call connects once', async () => {
    const gateway = await gatewayOf([tiny()])
    expect(gateway.detail('tiny')).toMatchObject({
      state: 'dormant',
      attempts: 0,
      connections: 0,
      pid: undefined,
    })
    gateway.servers()
    await gateway.listTools('tiny')
    expect(gateway.detail('tiny').attempts).toBe(0)
    expect(await gateway.call('tiny', 'echo', { text: 'a' })).toBe('echo:a')
    expect(gateway.detail('tiny')).toMatchObject({ state: 'ready', attempts: 1, connections: 1 })
    // `_meta["anthropic/alwaysLoad"]` tools are described in full without an mcp_tools round trip.
    expect(gateway.servers()).toMatch(/ {2}- env\n {4}Report whether/)
    expect(gateway.servers()).not.toContain('- echo')
  })

  it('concurrent first calls share one connection attempt (one spawn)', async () => {
    const gateway = await gatewayOf([tiny('slow', { env: { STARTUP_DELAY_MS: '300' } })])
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => gateway.call('slow', 'echo', { text: String(n) })),
    )
    expect(results).toEqual(['echo:1', 'echo:2', 'echo:3', 'echo:4', 'echo:5'])
    expect(gateway.detail('slow')).toMatchObject({ attempts: 1, connections: 1, state: 'ready' })
  })

  it('lazy: released exactly one idle window after the last activity (manual clock), and the process is gone', async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf([tiny()], { idle: 1000, clock })
    await gateway.call('tiny', 'echo', {})
    const pid = gateway.detail('tiny').pid!
    clock.advance(600)
    await gateway.call('tiny', 'echo', {}) // activity restarts the window
    expect(gateway.detail('tiny').idleDeadline).toBe(clock.now() + 1000)
    clock.advance(999) // 1.599 s after the first use, 0.999 s after the last
    expect(gateway.detail('tiny')).toMatchObject({ state: 'ready', releases: 0 })
    clock.advance(1)
    expect(gateway.detail('tiny').state).not.toBe('ready') // released at the deadline itself
    expect(await until(() => gateway.detail('tiny').state === 'dormant')).toBeGreaterThanOrEqual(0)
    expect(await until(() => !isAlive(pid))).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('tiny')).toMatchObject({ releases: 1, tools: { count: 5 } })
    // The cache file is written in the background; until it lands the released server is described from memory.
    expect(await until(() => gateway.detail('tiny').tools.source === 'cache')).toBeGreaterThanOrEqual(0)
  })

  it('lazy: never released while a call is in flight, even one longer than the window', async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf([tiny()], { idle: 1000, clock })
    const call = gateway.call('tiny', 'sleep', { ms: 300 })
    await until(() => gateway.detail('tiny').inFlight === 1 && gateway.detail('tiny').state === 'ready')
    clock.advance(10 * 1000) // ten windows pass while the call runs
    expect(gateway.detail('tiny')).toMatchObject({ state: 'ready', releases: 0, idleDeadline: undefined })
    expect(clock.pending).toBe(0)
    expect(await call).toBe('slept 300')
    expect(gateway.detail('tiny').idleDeadline).toBe(clock.now() + 1000) // the window starts when the call ends
    clock.advance(1000)
    expect(await until(() => gateway.detail('tiny').state === 'dormant')).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('tiny').releases).toBe(1)
  })

  it('lazy-keep-alive: pinned after the first connection and never released for idleness', async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf([tiny('pin', { lifecycle: 'lazy-keep-alive' })], { idle: 1000, clock })
    expect(gateway.detail('pin')).toMatchObject({ state: 'dormant', pinned: false })
    await gateway.call('pin', 'echo', {})
    expect(gateway.detail('pin')).toMatchObject({ state: 'ready', pinned: true, idleDisconnectMs: undefined })
    expect(clock.pending).toBe(0) // no release is even scheduled
    clock.advance(24 * 3600_000)
    expect(gateway.detail('pin')).toMatchObject({ state: 'ready', releases: 0, idleDeadline: undefined })
  })

  it('eager: starts connecting at activation without holding it up; no idle release unless set', async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf([tiny('hot', { lifecycle: 'eager', env: { STARTUP_DELAY_MS: '800' } })], {
      idle: 1000,
      clock,
    })
    // start() has returned while the server is still starting (it answers after 800 ms): nothing was awaited.
    expect(gateway.detail('hot').state).toBe('connecting')
    expect(await until(() => gateway.detail('hot').state === 'ready')).toBeGreaterThanOrEqual(0)
    expect(clock.pending).toBe(0)
    clock.advance(24 * 3600_000)
    expect(gateway.detail('hot')).toMatchObject({ state: 'ready', releases: 0 })
  })

  it('keep-alive with an explicit idleDisconnectMs is released; a failing eager server only logs', async () => {
    const clock = new ManualClock()
    const gateway = await gatewayOf(
      [
        tiny('kept', { lifecycle: 'keep-alive', idleDisconnectMs: 1000 }),
        tiny('broken', { lifecycle: 'keep-alive', command: '/nonexistent/server-binary' }),
      ],
      { clock },
    )
    expect(await until(() => gateway.detail('kept').state === 'ready')).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('kept').idleDeadline).toBe(clock.now() + 1000)
    clock.advance(1000)
    expect(await until(() => gateway.detail('kept').state === 'dormant')).toBeGreaterThanOrEqual(0)
    expect(await until(() => gateway.detail('broken').lastError !== undefined)).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('broken').state).toBe('dormant')
    expect(gateway.detail('broken').lastError).not.toContain('nonexistent') // the status never shows the command
  })

  it('every mode reconnects on the next call after the server exits; no background loop', async () => {
    const gateway = await gatewayOf([tiny('k', { lifecycle: 'keep-alive' })])
    await until(() => gateway.detail('k').state === 'ready')
    await failure(gateway.call('k', 'crash', {}))
    await until(() => gateway.detail('k').state === 'dormant')
    await sleep(300)
    expect(gateway.detail('k').attempts).toBe(1) // nothing reconnects on its own
    expect(await gateway.call('k', 'echo', { text: 'back' })).toBe('echo:back')
    expect(gateway.detail('k')).toMatchObject({ attempts: 2, connections: 2, state: 'ready' })
  })
})

describe('delivery categories', () => {
  it('not_sent: the server cannot start; nothing ran, lastError recorded, state stays dormant', async () => {
    const gateway = await gatewayOf([tiny('gone', { command: '/nonexistent/server-binary' })])
    const error = await failure(gateway.call('gone', 'echo', {}))
    expect(error.delivery).toBe('not_sent')
    expect(error.message).toMatch(/^\[delivery=not_sent\] gone:/)
    expect(gateway.detail('gone')).toMatchObject({ state: 'dormant', connections: 0, attempts: 1 })
    expect(gateway.detail('gone').lastError).toBeDefined()
  })

  it('not_sent: an unknown server, an unknown tool, an aborted signal', async () => {
    const gateway = await gatewayOf([tiny()])
    expect((await failure(gateway.call('nope', 'echo', {}))).delivery).toBe('not_sent')
    const unknown = await failure(gateway.call('tiny', 'ech', {}))
    expect(unknown.delivery).toBe('not_sent')
    expect(unknown.message).toContain('did you mean echo')
    const aborted = await failure(gateway.call('tiny', 'echo', {}, { signal: AbortSignal.abort() }))
    expect(aborted.delivery).toBe('not_sent')
  })

  it('server_error: a JSON-RPC error answer keeps the connection', async () => {
    const gateway = await gatewayOf([tiny()])
    const error = await failure(gateway.call('tiny', 'fail', {}))
    expect(error.delivery).toBe('server_error')
    expect(error.message).toContain('deliberate failure')
    expect(gateway.detail('tiny')).toMatchObject({ state: 'ready', connections: 1, lastError: undefined })
  })

  it('may_have_run: a timeout resets the connection and is never retried', async () => {
    const gateway = await gatewayOf([tiny()], { callTimeoutMs: 300 })
    await gateway.call('tiny', 'echo', {})
    const pid = gateway.detail('tiny').pid!
    const error = await failure(gateway.call('tiny', 'sleep', { ms: 3000 }))
    expect(error.delivery).toBe('may_have_run')
    expect(error.message).toContain('read-only') // the tool's annotation is passed on
    expect(await until(() => !isAlive(pid))).toBeGreaterThanOrEqual(0)
    expect(gateway.detail('tiny')).toMatchObject({ state: 'dormant', connections: 1, attempts: 1 })
    expect(await gateway.call('tiny', 'echo', { text: 'x' })).toBe('echo:x')
    expect(gateway.detail('tiny')).toMatchObject({ connections: 2, attempts: 2 })
  })

  it('may_have_run: the transport is lost mid-call', async () => {
    const gateway = await gatewayOf([tiny()])
    const error = await failure(gateway.call('tiny', 'crash', {}))
    expect(error.delivery).toBe('may_have_run')
    expect(await until(() => gateway.detail('tiny').state === 'dormant')).toBeGreaterThanOrEqual(0)
  })

  it('may_have_run: cancelled after dispatch', async () => {
    const gateway = await gatewayOf([tiny()])
    await gateway.call('tiny', 'echo', {})
    const controller = new AbortController()
    const call = gateway.call('tiny', 'sleep', { ms: 2000 }, { signal: controller.signal })
    await until(() => gateway.detail('tiny').inFlight === 1)
    await sleep(200)
    controller.abort()
    expect((await failure(call)).delivery).toBe('may_have_run')
  })
})

describe('tolerant intake', () => {
  it('one tool whose schema has no single meaning is left out with a diagnostic; the server keeps the rest', async () => {
    const gateway = await gatewayOf([tiny('bad', { env: { BAD_TOOL: '1' } })])
    const listing = await gateway.listTools('bad', { refresh: true })
    expect(listing?.tools.map((tool) => tool.name)).toEqual(['echo', 'sleep', 'crash', 'fail', 'env'])
    expect(listing?.diagnostics.map((diagnostic) => diagnostic.tool)).toEqual(['broken'])
    expect(await gateway.call('bad', 'echo', { text: 'ok' })).toBe('echo:ok')
    const error = await failure(gateway.call('bad', 'broken', {}))
    expect(error.delivery).toBe('not_sent')
    expect(LazyMcpGateway.renderListing(listing, 'bad', false)).toContain('broken (left out')
  })
})
