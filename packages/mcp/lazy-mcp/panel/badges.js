// Pure presentation rules of the status panel: badge, labels and number formats. No DOM, no fetch, so the same
// module runs in the browser and in the unit tests. Types: ./badges.d.ts (the snapshot is GatewayStatusSnapshot).

/** A ready server used within this many ms is "in use"; display only — the idle window is what releases it. */
export const IN_USE_WINDOW_MS = 120_000

/** The host's accepted range for `idleDisconnectMs` (MIN_IDLE_DISCONNECT_MS … MAX_TIMER_DELAY_MS in src/config.ts). */
export const MIN_IDLE_MS = 1000
export const MAX_IDLE_MS = 2_147_483_647

/** The panel polls this often by default (one request per interval, shared by every consumer). */
export const DEFAULT_POLL_MS = 5000
export const MIN_POLL_MS = 250

/**
 * Badge kinds in precedence order, with the Chinese label the UI shows, the English meaning (the reference for
 * localisation) and the DSH theme token the colour follows.
 * @type {Readonly<Record<import('./badges.js').BadgeKind, import('./badges.js').BadgeInfo>>}
 */
export const BADGES = Object.freeze({
  failed: {
    label: '连接失败',
    meaning: 'failed',
    description: 'the last attempt failed',
    token: '--dsw-alias-state-error-primary',
  },
  connecting: {
    label: '连接中',
    meaning: 'connecting',
    description: 'a connection is being opened',
    token: '--dsw-alias-state-warn-primary',
  },
  'in-use': {
    label: '正在使用',
    meaning: 'in use',
    description: 'connected, used in the last 120 s',
    token: '--dsw-alias-state-success-primary',
  },
  connected: {
    label: '已连接',
    meaning: 'connected',
    description: 'connected, idle',
    token: '--dsw-alias-brand-primary',
  },
  dormant: {
    label: '休眠',
    meaning: 'dormant',
    description: 'no process, no error',
    token: '--dsw-alias-state-idle-primary',
  },
})

/**
 * The badge of one server. `lastError` wins over the transport state: a server whose connection threw stays
 * `dormant` in the host, and must read as failed, not as a reassuring grey dot. `ready` splits by recency into
 * "in use" and "connected"; `now` should be the snapshot's own `at` so browser clock skew cannot move the line.
 * @param {import('./badges.js').ServerStatusLike} server
 * @param {number} now epoch ms
 * @param {number} [inUseWindowMs]
 * @returns {import('./badges.js').BadgeKind}
 */
export function badgeOf(server, now, inUseWindowMs = IN_USE_WINDOW_MS) {
  if (typeof server.lastError === 'string' && server.lastError !== '') return 'failed'
  if (server.state === 'connecting') return 'connecting'
  if (server.state === 'ready') {
    const used = server.lastUsedAt
    return typeof used === 'number' && now - used <= inUseWindowMs ? 'in-use' : 'connected'
  }
  return 'dormant'
}

/**
 * How many servers show each badge, in precedence order.
 * @param {import('./badges.js').SnapshotLike} snapshot
 * @param {number} [inUseWindowMs]
 * @returns {Record<import('./badges.js').BadgeKind, number>}
 */
export function countBadges(snapshot, inUseWindowMs = IN_USE_WINDOW_MS) {
  /** @type {Record<import('./badges.js').BadgeKind, number>} */
  const counts = { failed: 0, connecting: 0, 'in-use': 0, connected: 0, dormant: 0 }
  for (const server of snapshot.servers) counts[badgeOf(server, snapshot.at, inUseWindowMs)]++
  return counts
}

/**
 * `13 (cache)`, `5 (live)`; `—` when no list has ever been seen (never `0`, which would claim an empty server).
 * @param {{ count: number, source: 'live' | 'memory' | 'cache' | 'none' }} tools
 * @returns {string}
 */
export function formatTools(tools) {
  if (tools.source === 'none') return '—'
  return `${tools.count} (${tools.source})`
}

/**
 * Milliseconds as whole-or-decimal seconds for the idle-window field: 600000 → "600", 1500 → "1.5".
 * @param {number} ms
 * @returns {string}
 */
export function msToSeconds(ms) {
  return String(Math.round(ms) / 1000)
}

/**
 * A duration for people: `45 s`, `10 min`, `1 h 30 min`, `2 d`.
 * @param {number} ms
 * @returns {string}
 */
export function formatDuration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 120) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 120) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  return `${Math.round(hours / 24)} d`
}

/**
 * Last use relative to the snapshot time: `never`, `just now`, `12 s ago`, `3 min ago`.
 * @param {number | undefined} lastUsedAt
 * @param {number} now
 * @returns {string}
 */
export function formatLastUsed(lastUsedAt, now) {
  if (typeof lastUsedAt !== 'number') return 'never'
  const ago = now - lastUsedAt
  if (ago < 1000) return 'just now'
  return `${formatDuration(ago)} ago`
}

/**
 * The idle window a row is under, and who set it: the server's own configuration, the panel, or the gateway
 * configuration. `lazy-keep-alive` after its first connection, and eager/keep-alive servers without their own
 * window, are never released for idleness.
 * @param {import('./badges.js').ServerStatusLike} server
 * @param {import('./badges.js').SnapshotLike} snapshot
 * @returns {string}
 */
export function formatIdle(server, snapshot) {
  if (server.pinned) return 'never (pinned)'
  if (typeof server.idleDisconnectMs !== 'number') return 'never'
  const seconds = `${msToSeconds(server.idleDisconnectMs)} s`
  if (server.idleDisconnectMsExplicit) return `${seconds} (own)`
  return `${seconds} (${snapshot.idleOverride ? 'panel' : 'config'})`
}

/**
 * Client-side check of the idle-window field, in SECONDS, before anything is sent (the host validates again).
 * Returns the milliseconds to POST, or a sentence saying what to type instead.
 * @param {string} text
 * @returns {{ ok: true, ms: number } | { ok: false, error: string }}
 */
export function parseIdleSeconds(text) {
  const trimmed = String(text).trim()
  const min = MIN_IDLE_MS / 1000
  const max = Math.floor(MAX_IDLE_MS / 1000)
  const range = `between ${min} and ${max} seconds`
  if (trimmed === '') return { ok: false, error: `Enter the idle window in seconds, ${range}.` }
  if (!/^\d+(\.\d{1,3})?$/.test(trimmed))
    return { ok: false, error: `"${trimmed}" is not a number of seconds; enter digits, ${range}.` }
  const ms = Math.round(Number(trimmed) * 1000)
  if (ms < MIN_IDLE_MS || ms > MAX_IDLE_MS)
    return { ok: false, error: `${trimmed} s is out of range; enter ${range}.` }
  return { ok: true, ms }
}

/**
 * A positive integer query parameter (e.g. `?poll=500`), clamped to `min`, or the fallback.
 * @param {string | null} value
 * @param {number} fallback
 * @param {number} min
 * @returns {number}
 */
export function positiveParam(value, fallback, min) {
  if (value === null || !/^\d+$/.test(value)) return fallback
  return Math.max(min, Number(value))
}
