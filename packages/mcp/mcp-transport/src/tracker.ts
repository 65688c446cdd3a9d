import { type IdKey, idKey, type JsonRpcId } from './message-id.ts'

/** A request the client sent and the server has not answered yet. */
export interface PendingRequest {
  readonly id: string | number
  readonly method: string
}

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
   * The pending request a malformed or dropped message answers, by the id recovered from its edges (`edgeId`,
   * `oversizeLineId`), removed from the tracker; undefined when no id was recovered or it names no pending request,
   * so nobody is guessed at.
   */
  claim(id: JsonRpcId | undefined): PendingRequest | undefined {
    const key = idKey(id)
    return key !== undefined && this.pending.has(key) ? this.take(key) : undefined
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
