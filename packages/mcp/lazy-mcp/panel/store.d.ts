// Types of store.js (browser JavaScript).
import type { GatewayStatusSnapshot } from '../src/status-types.ts'

export declare const STATE_URL: string

export interface StoreState {
  readonly snapshot: GatewayStatusSnapshot | undefined
  /** Why the last read failed; the last good snapshot stays. */
  readonly error: string | undefined
  readonly updatedAt: number | undefined
}

export interface StateStore {
  get(): StoreState
  /** The first consumer starts polling (with an immediate read); the last one to leave stops it. */
  subscribe(listener: (state: StoreState) => void): () => void
  refresh(): Promise<void>
  setIdleDisconnectMs(ms: number): Promise<GatewayStatusSnapshot>
  clearIdleDisconnectMs(): Promise<GatewayStatusSnapshot>
  readonly consumers: number
}

export declare function createStateStore(options?: {
  url?: string
  intervalMs?: number
  fetch?: typeof globalThis.fetch
}): StateStore
