import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js'
import { NotWrittenError } from './stdio-transport.ts'

/**
 * How far a failed call got, so the model knows whether a retry can repeat a side effect:
 * - `not_sent`: the request never reached the server; nothing ran. Fix the cause and retry.
 * - `server_error`: the server answered with an MCP error; the tool may have partly run. Read the error first.
 * - `may_have_run`: the request went out and the outcome is unknown (timeout, cancellation, lost transport).
 *   Never retried automatically; confirm the effect or ask the user.
 */
export type Delivery = 'not_sent' | 'server_error' | 'may_have_run'

const GUIDANCE: Readonly<Record<Delivery, string>> = {
  not_sent: 'The request never reached the server; nothing ran. Fix the cause, then retry.',
  server_error:
    'The server answered with an error; the tool may have partly run. Read the error before retrying.',
  may_have_run:
    'The request was sent and the outcome is unknown. Do not retry automatically: check whether it took effect, or ask the user.',
}

/** A failed gateway call, with its delivery category in the message and as a field. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError'
  readonly delivery: Delivery
  readonly server: string
  constructor(delivery: Delivery, server: string, detail: string, options?: { cause?: unknown }) {
    super(`[delivery=${delivery}] ${server}: ${detail}\n${GUIDANCE[delivery]}`, options)
    this.delivery = delivery
    this.server = server
  }
}

/** What the transport saw of one tagged request. */
export type RequestFate =
  | 'unsent'
  | 'writing'
  | 'written'
  | 'write-failed-before'
  | 'write-failed'
  | 'answered-error'
  | 'answered'

/** Parameter key that marks a request for tracking; removed before the message leaves the process. */
export const TRACK_KEY = 'dsh-harden/lazy-mcp-track'

/**
 * A transport wrapper that records, per tracked request, whether it was written and whether the server answered
 * with a JSON-RPC error. The SDK's own errors cannot tell "the server said no" from "the SDK gave up waiting"
 * (both are `McpError`), so delivery is decided from what actually crossed the wire.
 */
export class DeliveryTracker implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined

  readonly inner: Transport
  readonly #fates = new Map<number, RequestFate>()
  readonly #byId = new Map<RequestId, number>()
  #nextTag = 1

  constructor(inner: Transport) {
    this.inner = inner
    inner.onclose = () => this.onclose?.()
    inner.onerror = (error) => this.onerror?.(error)
    inner.onmessage = (message) => {
      if ('id' in message && message.id !== undefined && !('method' in message)) {
        const tag = this.#byId.get(message.id)
        if (tag !== undefined) {
          this.#fates.set(tag, 'error' in message ? 'answered-error' : 'answered')
          this.#byId.delete(message.id)
        }
      }
      this.onmessage?.(message)
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version)
  }

  /** A fresh tag to put under `params._meta[TRACK_KEY]`. */
  tag(): number {
    const tag = this.#nextTag++
    this.#fates.set(tag, 'unsent')
    return tag
  }

  /** The fate of a tagged request; forgets it. */
  settle(tag: number): RequestFate {
    const fate = this.#fates.get(tag) ?? 'unsent'
    this.#fates.delete(tag)
    for (const [id, candidate] of this.#byId) if (candidate === tag) this.#byId.delete(id)
    return fate
  }

  start(): Promise<void> {
    return this.inner.start()
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const tag = untag(message)
    if (tag === undefined) return this.inner.send(message, options)
    const { tag: id, message: clean } = tag
    this.#fates.set(id, 'writing')
    if ('id' in clean && clean.id !== undefined) this.#byId.set(clean.id, id)
    try {
      await this.inner.send(clean, options)
      if (this.#fates.get(id) === 'writing') this.#fates.set(id, 'written')
    } catch (error) {
      this.#fates.set(
        id,
        error instanceof NotWrittenError || isRefused(error) ? 'write-failed-before' : 'write-failed',
      )
      throw error
    }
  }
}

/** A connection that was refused never carried the request. */
function isRefused(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

function untag(message: JSONRPCMessage): { tag: number; message: JSONRPCMessage } | undefined {
  if (!('method' in message) || !('params' in message)) return undefined
  const params = message.params as { _meta?: Record<string, unknown> } | undefined
  const tag = params?._meta?.[TRACK_KEY]
  if (typeof tag !== 'number') return undefined
  const { [TRACK_KEY]: _drop, ...meta } = params!._meta!
  const { _meta: _old, ...rest } = params!
  const cleanParams = Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest
  return { tag, message: { ...message, params: cleanParams } as JSONRPCMessage }
}

/** Maps what the wire saw to a delivery category; anything after a write is `may_have_run` (pessimistic). */
export function deliveryOf(fate: RequestFate): Delivery {
  switch (fate) {
    case 'unsent':
    case 'write-failed-before':
      return 'not_sent'
    case 'answered-error':
      return 'server_error'
    default:
      return 'may_have_run'
  }
}
