/**
 * One shared reader of the host half's route, however many components show it (the header badge of each open
 * session, the settings tab): it polls while anyone listens and stops when the last one leaves. The route answers
 * 304 while no verdict changed, so an idle poll costs one small request.
 */
import { CONTRACTS_PATH, type ContractsView } from '../../src/web/wire.ts'
import { parseView } from './model.ts'

export type ContractsState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly view: ContractsView }
  /** `view` is the last good one, if any: a failed poll does not blank a panel that was showing verdicts. */
  | { readonly status: 'error'; readonly reason: string; readonly view: ContractsView | undefined }

/** Tools register while plugins load (and again when one is hot-added), so the panel follows along. */
export const POLL_MS = 4000

let state: ContractsState = { status: 'loading' }
let etag: string | undefined
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setTimeout> | undefined
let inFlight = false

function publish(next: ContractsState): void {
  state = next
  for (const listener of listeners) listener()
}

function lastView(): ContractsView | undefined {
  return state.status === 'loading' ? undefined : state.view
}

async function poll(): Promise<void> {
  if (inFlight) return
  inFlight = true
  try {
    const response = await fetch(CONTRACTS_PATH, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: etag === undefined ? {} : { 'if-none-match': etag },
    })
    if (response.status === 304) return
    if (!response.ok) {
      const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined
      const why = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`
      publish({ status: 'error', reason: why, view: lastView() })
      return
    }
    const view = parseView(await response.json())
    if (typeof view === 'string') {
      publish({ status: 'error', reason: view, view: lastView() })
      return
    }
    etag = response.headers.get('etag') ?? undefined
    publish({ status: 'ready', view })
  } catch (error) {
    publish({
      status: 'error',
      reason: error instanceof Error ? error.message : String(error),
      view: lastView(),
    })
  } finally {
    inFlight = false
  }
}

function schedule(): void {
  timer = setTimeout(() => {
    void poll().finally(() => {
      if (listeners.size > 0) schedule()
    })
  }, POLL_MS)
}

/** `useSyncExternalStore`'s subscribe: the first listener starts polling (and reads at once), the last stops it. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (listeners.size === 1) {
    void poll()
    schedule()
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
  }
}

export function getSnapshot(): ContractsState {
  return state
}

/** Read now (the panel opening): the user sees the newest verdicts without waiting for the next poll. */
export function refresh(): void {
  void poll()
}
