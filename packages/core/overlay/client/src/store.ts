/**
 * One shared reader of the host half's endpoint, however many components show it (the header badge of each open
 * session, the settings tab): it polls while anyone listens and stops when the last one leaves. At most one request
 * is out at a time, and at most one timer is pending: a read asked for while one is out (the panel opening) becomes
 * one more read right after it, never a second request beside it. A request names the revision shown, and the
 * endpoint answers `unchanged` while no verdict changed, so an idle poll costs a few bytes.
 */
import { CONTRACTS_ENDPOINT, CONTRACTS_PATH, type ContractsView } from '../../src/web/wire.ts'
import type { ContractsKey } from './locales.ts'
import { parseReply } from './model.ts'

/** Why the panel could not read the endpoint, as a dictionary key and its parameters (the panel words it). */
export interface ContractsProblem {
  readonly key: ContractsKey
  readonly params?: Readonly<Record<string, string | number>>
}

export type ContractsState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly view: ContractsView }
  /** `view` is the last good one, if any: a failed poll does not blank a panel that was showing verdicts. */
  | { readonly status: 'error'; readonly problem: ContractsProblem; readonly view: ContractsView | undefined }

/** Tools register while plugins load (and again when one is hot-added), so the panel follows along. */
export const POLL_MS = 4000
/** A request with no answer by then is given up, so a stalled connection never stops the polling. */
export const REQUEST_TIMEOUT_MS = 15_000

let state: ContractsState = { status: 'loading' }
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setTimeout> | undefined
let inFlight: AbortController | undefined
let readAgain = false
let sequence = 0
/** The abort reasons: the deadline passed, or nobody listens any more (which shows nothing). */
const TIMED_OUT = 'timed out'
const UNHEARD = 'no listener'

function publish(next: ContractsState): void {
  state = next
  for (const listener of listeners) listener()
}

function lastView(): ContractsView | undefined {
  return state.status === 'loading' ? undefined : state.view
}

function fail(problem: ContractsProblem): void {
  publish({ status: 'error', problem, view: lastView() })
}

/** The body DSH's connection expects on a channel (rc.8 `clientRequestSchema`); the id only pairs the answer. */
function envelope(rpcId: string): string {
  const view = lastView()
  return JSON.stringify({
    type: 'client-request',
    rpcId,
    method: CONTRACTS_ENDPOINT,
    payload: { revision: view === undefined ? null : view.revision },
  })
}

/** The state an answer leads to; undefined when the view shown is still current and nothing failed before. */
function afterAnswer(body: unknown, rpcId: string): ContractsState | undefined {
  const reply = body as { type?: unknown; rpcId?: unknown; result?: { ok?: unknown; value?: unknown } } | null
  const view = lastView()
  if (reply?.type !== 'server-response' || reply.rpcId !== rpcId || reply.result?.ok !== true)
    return {
      status: 'error',
      problem: { key: 'error.malformed', params: { detail: 'not an answer to this request' } },
      view,
    }
  const parsed = parseReply(reply.result.value)
  if (typeof parsed === 'string')
    return { status: 'error', problem: { key: 'error.malformed', params: { detail: parsed } }, view }
  if (!('unchanged' in parsed)) return { status: 'ready', view: parsed }
  return state.status === 'error' && view !== undefined ? { status: 'ready', view } : undefined
}

async function read(abort: AbortController): Promise<void> {
  const rpcId = `dsh-harden-${++sequence}`
  const response = await fetch(CONTRACTS_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: envelope(rpcId),
    signal: abort.signal,
  })
  if (response.status === 403) return fail({ key: 'error.forbidden' })
  if (!response.ok) return fail({ key: 'error.http', params: { status: response.status } })
  const next = afterAnswer(await response.json(), rpcId)
  if (next !== undefined) publish(next)
}

async function poll(): Promise<void> {
  if (inFlight !== undefined) {
    readAgain = true
    return
  }
  const abort = new AbortController()
  inFlight = abort
  const deadline = setTimeout(() => abort.abort(TIMED_OUT), REQUEST_TIMEOUT_MS)
  try {
    await read(abort)
  } catch (error) {
    if (abort.signal.reason === TIMED_OUT)
      fail({ key: 'error.timeout', params: { seconds: REQUEST_TIMEOUT_MS / 1000 } })
    else if (!abort.signal.aborted)
      fail({
        key: 'error.network',
        params: { detail: error instanceof Error ? error.message : String(error) },
      })
  } finally {
    clearTimeout(deadline)
    inFlight = undefined
  }
  if (readAgain && listeners.size > 0) {
    readAgain = false
    await poll()
  }
}

/** The next poll, unless one is already pending: one timer chain, however listeners come and go. */
function schedule(): void {
  if (timer !== undefined || listeners.size === 0) return
  timer = setTimeout(() => {
    timer = undefined
    void poll().finally(schedule)
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
    if (listeners.size > 0) return
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    readAgain = false
    inFlight?.abort(UNHEARD)
  }
}

export function getSnapshot(): ContractsState {
  return state
}

/** Read now (the panel opening): the user sees the newest verdicts without waiting for the next poll. */
export function refresh(): void {
  void poll()
}
