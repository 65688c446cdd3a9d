import { type EdgeMessage, type IdKey, idKey, type JsonRpcId } from './message-id.ts'

/** A request the client sent and the server has not answered yet. */
export interface PendingRequest {
  readonly id: string | number
  readonly method: string
}

/** How many outstanding requests a proxy remembers per client (or per HTTP session) before forgetting the oldest. */
export const MAX_PENDING_REQUESTS = 4096

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The client's outstanding requests, by id: which responses are `tools/list` results (the only ones rewritten), and
 * whom to answer with a JSON-RPC error when the upstream dies, so no request is left waiting.
 */
export class RequestTracker {
  private readonly pending = new Map<IdKey, PendingRequest>()
  private readonly maxPending: number

  /** `maxPending`: the most requests remembered; past it the oldest is forgotten (it just will not be rewritten). */
  constructor(options: { maxPending?: number } = {}) {
    this.maxPending = options.maxPending ?? Number.POSITIVE_INFINITY
  }

  get size(): number {
    return this.pending.size
  }

  /** Records the requests in one parsed client message (single or batch). */
  sent(message: unknown): void {
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!isRecord(item) || typeof item.method !== 'string') continue
      const key = idKey(item.id)
      if (key === undefined) continue
      this.pending.set(key, { id: item.id as string | number, method: item.method })
      if (this.pending.size > this.maxPending) this.pending.delete(this.pending.keys().next().value!)
    }
  }

  isPending(key: IdKey): boolean {
    return this.pending.has(key)
  }

  isToolsList = (key: IdKey): boolean => this.pending.get(key)?.method === 'tools/list'

  /** True when the parsed server message answers at least one pending `tools/list`. */
  answersToolsList(message: unknown): boolean {
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!isRecord(item) || Object.hasOwn(item, 'method')) continue
      const key = idKey(item.id)
      if (key !== undefined && this.isToolsList(key)) return true
    }
    return false
  }

  /** Forgets the requests one parsed server message answers. */
  answered(message: unknown): void {
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!isRecord(item) || Object.hasOwn(item, 'method')) continue
      const key = idKey(item.id)
      if (key !== undefined) this.pending.delete(key)
    }
  }

  /**
   * The pending request with id `id`, removed from the tracker; undefined when there is no id or it names no pending
   * request, so nobody is guessed at. For a message known to be that request's answer: a dropped message whose edges
   * only name an id goes through {@link ownerOfDropped}, which asks whether it is an answer at all.
   */
  claim(id: JsonRpcId | undefined): PendingRequest | undefined {
    const key = idKey(id)
    return key !== undefined && this.pending.has(key) ? this.take(key) : undefined
  }

  /**
   * The pending request a dropped message (a line that is not JSON, or one over the size limit) names by the `id` its
   * edges hold (`edgeMessage`, `oversizeLineMessage`); undefined when it names none. Only a message that reads as a
   * response is that request's answer (`answered`): the request is removed and the caller answers it with an error in
   * the server's place. Any other message naming it (a debug line that ends in the request it echoes) leaves it
   * pending, because the server may still answer it: then the real answer, the upstream's exit or the caller's
   * timeout settles it, and the client gets exactly one answer.
   */
  ownerOfDropped(message: EdgeMessage): { request: PendingRequest; answered: boolean } | undefined {
    const key = idKey(message.id)
    const request = key === undefined ? undefined : this.pending.get(key)
    if (request === undefined) return undefined
    if (message.isResponse) this.pending.delete(key!)
    return { request, answered: message.isResponse }
  }

  take(key: IdKey): PendingRequest | undefined {
    const found = this.pending.get(key)
    this.pending.delete(key)
    return found
  }

  /** Every outstanding request, removed from the tracker. */
  drain(): PendingRequest[] {
    const all = [...this.pending.values()]
    this.pending.clear()
    return all
  }
}

/** A JSON-RPC error response, as one line of text. */
export function errorResponse(
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  })
}

/** The SDK's `ErrorCode.ConnectionClosed`: the upstream went away before answering. */
export const CONNECTION_CLOSED = -32000
/** The SDK's `ErrorCode.RequestTimeout`: the upstream stayed silent past the facade's request timeout. */
export const REQUEST_TIMEOUT = -32001
/** `InternalError`: the upstream answered with something that is not a JSON-RPC message. */
export const INTERNAL_ERROR = -32603
