// One shared poller for every consumer of the gateway state (the panel, a session badge): a module-level store
// plus a listener set, so N consumers cost one request per interval, and polling stops when the last one leaves.
// Reading the state never wakes a server: the route reads in-memory records only.

import { DEFAULT_POLL_MS } from './badges.js'

export const STATE_URL = '/lazy-mcp/state'

/**
 * @typedef {import('../src/status-types.ts').GatewayStatusSnapshot} GatewayStatusSnapshot
 * @typedef {{ snapshot: GatewayStatusSnapshot | undefined, error: string | undefined, updatedAt: number | undefined }} StoreState
 * @typedef {(state: StoreState) => void} Listener
 */

/**
 * @param {{ url?: string, intervalMs?: number, fetch?: typeof globalThis.fetch }} [options]
 */
export function createStateStore(options = {}) {
  const url = options.url ?? STATE_URL
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_MS
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  /** @type {Set<Listener>} */
  const listeners = new Set()
  /** @type {StoreState} */
  let state = { snapshot: undefined, error: undefined, updatedAt: undefined }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  /** @type {Promise<void> | undefined} */
  let inFlight

  /** @param {StoreState} next */
  function publish(next) {
    state = next
    for (const listener of [...listeners]) listener(state)
  }

  /** @param {Response} response */
  async function readSnapshot(response) {
    const body = await response.json().catch(() => undefined)
    if (!response.ok) {
      const message = body && typeof body.error === 'string' ? body.error : response.statusText
      throw new Error(`${response.status}: ${message}`)
    }
    return /** @type {GatewayStatusSnapshot} */ (body)
  }

  /** One GET; concurrent callers share it, so a manual refresh never doubles a poll. */
  function refresh() {
    inFlight ??= (async () => {
      try {
        const snapshot = await readSnapshot(await doFetch(url, { cache: 'no-store' }))
        publish({ snapshot, error: undefined, updatedAt: Date.now() })
      } catch (error) {
        publish({
          ...state,
          error: `could not read ${url}: ${error instanceof Error ? error.message : error}`,
        })
      } finally {
        inFlight = undefined
      }
    })()
    return inFlight
  }

  // `timer` is undefined while a tick is reading, so a consumer arriving then starts exactly one new chain.
  function schedule() {
    timer = setTimeout(async () => {
      timer = undefined
      await refresh()
      if (listeners.size > 0 && timer === undefined) schedule()
    }, intervalMs)
  }

  /**
   * @param {'POST' | 'DELETE'} method
   * @param {string} [body]
   */
  async function write(method, body) {
    const init = /** @type {RequestInit} */ ({ method, cache: 'no-store' })
    if (body !== undefined) {
      init.body = body
      init.headers = { 'content-type': 'application/json' }
    }
    const snapshot = await readSnapshot(await doFetch(url, init))
    publish({ snapshot, error: undefined, updatedAt: Date.now() })
    return snapshot
  }

  return {
    /** The latest state (also given to every listener on change). */
    get: () => state,
    /**
     * Adds a consumer; the first one starts polling (with an immediate read), the last one to leave stops it.
     * @param {Listener} listener
     * @returns {() => void} unsubscribe
     */
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1 && timer === undefined) {
        void refresh()
        schedule()
      } else if (state.snapshot !== undefined || state.error !== undefined) listener(state)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && timer !== undefined) {
          clearTimeout(timer)
          timer = undefined
        }
      }
    },
    refresh,
    /** Sets the gateway-wide idle window (ms, validated by the caller and again by the host). */
    setIdleDisconnectMs: (/** @type {number} */ ms) =>
      write('POST', JSON.stringify({ idleDisconnectMs: ms })),
    /** Drops the panel's override and restores the configured window. */
    clearIdleDisconnectMs: () => write('DELETE'),
    /** Consumers currently subscribed (for tests). */
    get consumers() {
      return listeners.size
    },
  }
}
