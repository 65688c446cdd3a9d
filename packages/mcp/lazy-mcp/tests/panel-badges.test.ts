import { describe, expect, it, vi } from 'vitest'
import {
  BADGES,
  badgeOf,
  countBadges,
  formatDuration,
  formatIdle,
  formatLastUsed,
  formatTools,
  IN_USE_WINDOW_MS,
  MAX_IDLE_MS,
  MIN_IDLE_MS,
  msToSeconds,
  parseIdleSeconds,
  positiveParam,
} from '../panel/badges.js'
import { createStateStore } from '../panel/store.js'
import { MAX_TIMER_DELAY_MS, MIN_IDLE_DISCONNECT_MS } from '../src/index.ts'
import type { GatewayStatusSnapshot, ServerStatus } from '../src/status-types.ts'

const NOW = 1_800_000_000_000

function server(extra: Partial<ServerStatus> = {}): ServerStatus {
  return {
    name: 'docs',
    lifecycle: 'lazy',
    state: 'dormant',
    tools: { count: 0, source: 'none' },
    lastUsedAt: undefined,
    connections: 0,
    lastError: undefined,
    pinned: false,
    idleDisconnectMs: 600_000,
    idleDisconnectMsExplicit: false,
    ...extra,
  }
}

function snapshot(
  servers: ServerStatus[],
  extra: Partial<GatewayStatusSnapshot> = {},
): GatewayStatusSnapshot {
  return { servers, idleDisconnectMs: 600_000, idleOverride: false, at: NOW, ...extra }
}

describe('panel badges', () => {
  it('maps the three host states to five badges, ready split by the 120 s line', () => {
    expect(badgeOf(server({ state: 'dormant' }), NOW)).toBe('dormant')
    expect(badgeOf(server({ state: 'connecting' }), NOW)).toBe('connecting')
    expect(badgeOf(server({ state: 'ready', lastUsedAt: NOW - 1000 }), NOW)).toBe('in-use')
    expect(badgeOf(server({ state: 'ready', lastUsedAt: NOW - IN_USE_WINDOW_MS }), NOW)).toBe('in-use')
    expect(badgeOf(server({ state: 'ready', lastUsedAt: NOW - IN_USE_WINDOW_MS - 1 }), NOW)).toBe('connected')
    // An eager server that connected in the background and was never called is connected, not in use.
    expect(badgeOf(server({ state: 'ready', lastUsedAt: undefined }), NOW)).toBe('connected')
  })

  it('lastError wins over every transport state: a failed connect leaves the host record dormant', () => {
    for (const state of ['dormant', 'connecting', 'ready'] as const)
      expect(badgeOf(server({ state, lastError: 'spawn failed', lastUsedAt: NOW }), NOW)).toBe('failed')
    expect(badgeOf(server({ lastError: '' }), NOW)).toBe('dormant')
  })

  it('the in-use line is a parameter (display only) and is measured against the snapshot time', () => {
    const ready = server({ state: 'ready', lastUsedAt: NOW - 1500 })
    expect(badgeOf(ready, NOW, 1000)).toBe('connected')
    expect(badgeOf(ready, NOW, 2000)).toBe('in-use')
    expect(badgeOf(ready, NOW + 200_000)).toBe('connected')
  })

  it('every badge has a Chinese label, an English meaning and the DSH token of the spec', () => {
    expect(Object.keys(BADGES)).toEqual(['failed', 'connecting', 'in-use', 'connected', 'dormant'])
    expect(BADGES['in-use']).toMatchObject({ label: '正在使用', token: '--dsw-alias-state-success-primary' })
    expect(BADGES.connected).toMatchObject({ label: '已连接', token: '--dsw-alias-brand-primary' })
    expect(BADGES.connecting).toMatchObject({ label: '连接中', token: '--dsw-alias-state-warn-primary' })
    expect(BADGES.dormant).toMatchObject({ label: '休眠', token: '--dsw-alias-state-idle-primary' })
    expect(BADGES.failed).toMatchObject({ label: '连接失败', token: '--dsw-alias-state-error-primary' })
  })

  it('counts badges per snapshot', () => {
    const counts = countBadges(
      snapshot([
        server({ state: 'ready', lastUsedAt: NOW }),
        server({ state: 'ready', lastUsedAt: NOW - 300_000 }),
        server({ lastError: 'x' }),
        server(),
      ]),
    )
    expect(counts).toEqual({ failed: 1, connecting: 0, 'in-use': 1, connected: 1, dormant: 1 })
  })
})

describe('panel formats', () => {
  it('tool counts carry their metadata source; an unknown list is a dash, never 0', () => {
    expect(formatTools({ count: 13, source: 'cache' })).toBe('13 (cache)')
    expect(formatTools({ count: 5, source: 'live' })).toBe('5 (live)')
    expect(formatTools({ count: 0, source: 'live' })).toBe('0 (live)')
    expect(formatTools({ count: 0, source: 'none' })).toBe('—')
  })

  it('last use and durations', () => {
    expect(formatLastUsed(undefined, NOW)).toBe('never')
    expect(formatLastUsed(NOW - 200, NOW)).toBe('just now')
    expect(formatLastUsed(NOW - 12_000, NOW)).toBe('12 s ago')
    expect(formatLastUsed(NOW - 180_000, NOW)).toBe('3 min ago')
    expect(formatDuration(90 * 60_000)).toBe('90 min')
    expect(formatDuration(150 * 60_000)).toBe('2 h 30 min')
    expect(formatDuration(3 * 86_400_000)).toBe('3 d')
  })

  it('idle windows are shown in seconds with who set them', () => {
    const snap = snapshot([])
    expect(msToSeconds(600_000)).toBe('600')
    expect(msToSeconds(1500)).toBe('1.5')
    expect(formatIdle(server(), snap)).toBe('600 s (config)')
    expect(formatIdle(server(), { ...snap, idleOverride: true })).toBe('600 s (panel)')
    expect(formatIdle(server({ idleDisconnectMs: 120_000, idleDisconnectMsExplicit: true }), snap)).toBe(
      '120 s (own)',
    )
    expect(formatIdle(server({ pinned: true }), snap)).toBe('never (pinned)')
    expect(formatIdle(server({ idleDisconnectMs: undefined }), snap)).toBe('never')
  })
})

describe('idle-window field (seconds in, milliseconds out)', () => {
  it('uses the same range as the host', () => {
    expect(MIN_IDLE_MS).toBe(MIN_IDLE_DISCONNECT_MS)
    expect(MAX_IDLE_MS).toBe(MAX_TIMER_DELAY_MS)
  })

  it('accepts seconds and returns milliseconds', () => {
    expect(parseIdleSeconds('600')).toEqual({ ok: true, ms: 600_000 })
    expect(parseIdleSeconds(' 1.5 ')).toEqual({ ok: true, ms: 1500 })
    expect(parseIdleSeconds('1')).toEqual({ ok: true, ms: 1000 })
    expect(parseIdleSeconds('2147483')).toEqual({ ok: true, ms: 2_147_483_000 })
  })

  it('refuses with a sentence that says what to type', () => {
    for (const text of ['', '0', '0.5', '2147484', 'abc', '-5', '1e3', '10 min', '1.2345']) {
      const parsed = parseIdleSeconds(text)
      expect(parsed.ok, text).toBe(false)
      if (!parsed.ok) expect(parsed.error).toMatch(/between 1 and 2147483 seconds/)
    }
  })

  it('query parameters are positive integers, clamped', () => {
    expect(positiveParam(null, 5000, 250)).toBe(5000)
    expect(positiveParam('100', 5000, 250)).toBe(250)
    expect(positiveParam('500', 5000, 250)).toBe(500)
    expect(positiveParam('-1', 5000, 250)).toBe(5000)
  })
})

describe('shared state store', () => {
  function fakeFetch() {
    const calls: { method: string; body?: unknown }[] = []
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      calls.push({ method: init?.method ?? 'GET', body: init?.body })
      if (init?.method === 'POST' && JSON.parse(String(init.body)).idleDisconnectMs === 5)
        return new Response(JSON.stringify({ error: 'idleDisconnectMs must be an integer' }), { status: 400 })
      return new Response(JSON.stringify(snapshot([server()])), { status: 200 })
    })
    return { fetch: fetch as unknown as typeof globalThis.fetch, calls }
  }

  it('N consumers share one request per interval; polling stops when the last leaves', async () => {
    vi.useFakeTimers()
    try {
      const { fetch, calls } = fakeFetch()
      const store = createStateStore({ fetch, intervalMs: 1000 })
      const seen: number[] = []
      const leaveA = store.subscribe(() => seen.push(1))
      const leaveB = store.subscribe(() => seen.push(2))
      await vi.advanceTimersByTimeAsync(10)
      expect(calls).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(3000)
      expect(calls).toHaveLength(4)
      expect(seen.filter((x) => x === 1)).toHaveLength(4)
      expect(seen.filter((x) => x === 2)).toHaveLength(4)
      leaveA()
      leaveB()
      expect(store.consumers).toBe(0)
      await vi.advanceTimersByTimeAsync(5000)
      expect(calls).toHaveLength(4)
      // A new consumer restarts exactly one chain.
      const leaveC = store.subscribe(() => {})
      await vi.advanceTimersByTimeAsync(2010)
      expect(calls).toHaveLength(7)
      leaveC()
    } finally {
      vi.useRealTimers()
    }
  })

  it('POST and DELETE publish the returned snapshot; a refusal carries the host message', async () => {
    const { fetch, calls } = fakeFetch()
    const store = createStateStore({ fetch, intervalMs: 60_000 })
    await store.setIdleDisconnectMs(30_000)
    expect(calls.at(-1)).toEqual({ method: 'POST', body: '{"idleDisconnectMs":30000}' })
    expect(store.get().snapshot?.servers).toHaveLength(1)
    await store.clearIdleDisconnectMs()
    expect(calls.at(-1)?.method).toBe('DELETE')
    await expect(store.setIdleDisconnectMs(5)).rejects.toThrow('400: idleDisconnectMs must be an integer')
  })

  it('a failed read keeps the last snapshot and reports the error', async () => {
    let fail = false
    const fetch = (async () => {
      if (fail) throw new Error('connection refused')
      return new Response(JSON.stringify(snapshot([server()])))
    }) as unknown as typeof globalThis.fetch
    const store = createStateStore({ fetch, intervalMs: 60_000 })
    await store.refresh()
    fail = true
    await store.refresh()
    expect(store.get().snapshot?.servers).toHaveLength(1)
    expect(store.get().error).toMatch(/connection refused/)
  })
})
