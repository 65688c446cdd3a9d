/**
 * What one raw request produced. The checker speaks JSON-RPC by hand, without any SDK validation, so a server that
 * answers in the wrong envelope is still heard: its reply is reported, not dropped the way strict clients drop it.
 */
export type ExchangeOutcome =
  | {
      readonly kind: 'reply'
      /** The parsed reply, exactly as sent. */
      readonly message: unknown
      /** The reply's text, for evidence. */
      readonly text: string
      /**
       * `id`: the reply carried the request's id. `order`: it carried no usable id and was the only message that
       * arrived while this request was the one in flight (requests are sent one at a time).
       */
      readonly matchedBy: 'id' | 'order'
      /** HTTP only: the status of the POST that carried it. */
      readonly httpStatus?: number | undefined
    }
  | { readonly kind: 'timeout'; readonly afterMs: number }
  | { readonly kind: 'closed'; readonly detail: string }
  | { readonly kind: 'transport-error'; readonly detail: string }

export interface Exchange {
  readonly method: string
  readonly id: number
  readonly elapsedMs: number
  readonly outcome: ExchangeOutcome
}

/** A raw JSON-RPC connection to the server under check. Requests go one at a time. */
export interface RawConnection {
  request(method: string, params: unknown, timeoutMs: number): Promise<Exchange>
  notify(method: string, params?: unknown): Promise<void>
  /** After `initialize`: the version to announce on later HTTP requests (MCP-Protocol-Version). */
  setProtocolVersion(version: string): void
  /** Anything the server wrote that is not a JSON-RPC message (stdout noise, bad SSE data), clipped. */
  readonly noise: readonly string[]
  /** Replies that answered no request in flight: most often a reply to a notification, which JSON-RPC forbids. */
  readonly unsolicited: readonly string[]
  /** Methods of requests the server sent to us (answered: ping → {}, anything else → -32601). */
  readonly serverRequests: readonly string[]
  /** Captured stderr (stdio) of the server, clipped. */
  stderr(): string
  close(): Promise<void>
}

export const EVIDENCE_LIMIT = 300

export function clip(text: string, limit = EVIDENCE_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A server→client request we must answer so a chatty server cannot stall (ping → {}, the rest → -32601). */
export function answerServerRequest(message: Record<string, unknown>): object {
  if (message.method === 'ping') return { jsonrpc: '2.0', id: message.id, result: {} }
  if (message.method === 'roots/list') return { jsonrpc: '2.0', id: message.id, result: { roots: [] } }
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: -32601, message: `Method not found: ${String(message.method)}` },
  }
}
