import { MAX_MESSAGE_BYTES, SseRewriter } from '@dsh-harden/mcp-transport'
import { clip, type Exchange, type ExchangeOutcome, isObject, type RawConnection } from './exchange.ts'

const NOISE_LIMIT = 20
const BODY_LIMIT = 4 * 1024 * 1024

/**
 * Streamable HTTP, by hand: each message is a POST; a reply comes back as `application/json` or as an SSE stream
 * (`text/event-stream`) whose first response message is taken. The session id from `initialize` is echoed.
 */
export function openHttp(options: {
  url: string
  headers?: Readonly<Record<string, string>> | undefined
}): RawConnection {
  const noise: string[] = []
  const unsolicited: string[] = []
  const serverRequests: string[] = []
  let sessionId: string | undefined
  let protocolVersion: string | undefined
  let nextId = 1
  const inflight = new Set<AbortController>()

  const headers = (): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    ...(protocolVersion === undefined ? {} : { 'mcp-protocol-version': protocolVersion }),
    ...options.headers,
  })

  const note = (text: string): void => {
    if (noise.length < NOISE_LIMIT) noise.push(clip(text))
  }

  async function post(body: object, timeoutMs: number, id: number | undefined): Promise<ExchangeOutcome> {
    const controller = new AbortController()
    inflight.add(controller)
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(body),
        signal: controller.signal,
      })
      const session = response.headers.get('mcp-session-id')
      if (session !== null) sessionId = session
      if (id === undefined) {
        // A notification is answered with 202 and no body; anything else is a reply JSON-RPC forbids.
        const text = await response.text()
        if (response.status !== 202 || text.trim() !== '')
          unsolicited.push(clip(`HTTP ${response.status}${text.trim() === '' ? '' : ` ${text}`}`))
        return { kind: 'transport-error', detail: `HTTP ${response.status}` }
      }
      const type = response.headers.get('content-type') ?? ''
      if (type.includes('text/event-stream')) return await readSse(response, id)
      const text = await readCapped(response)
      if (text.trim() === '')
        return { kind: 'transport-error', detail: `HTTP ${response.status} with an empty body` }
      try {
        const message: unknown = JSON.parse(text)
        const matchedBy = isObject(message) && message.id === id ? 'id' : 'order'
        return { kind: 'reply', message, text, matchedBy, httpStatus: response.status }
      } catch {
        return {
          kind: 'transport-error',
          detail: `HTTP ${response.status} ${type || 'without content-type'}: ${clip(text, 200)}`,
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'timeout', afterMs: timeoutMs }
      return { kind: 'transport-error', detail: error instanceof Error ? error.message : String(error) }
    } finally {
      clearTimeout(timer)
      inflight.delete(controller)
    }
  }

  /** Reads SSE events through the repo's linear, bounded `SseRewriter` until one answers request `id`. */
  async function readSse(response: Response, id: number): Promise<ExchangeOutcome> {
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader()
    if (reader === undefined) return { kind: 'transport-error', detail: 'an SSE response with no body' }
    let reply: ExchangeOutcome | undefined
    const events = new SseRewriter({
      maxBytes: MAX_MESSAGE_BYTES,
      onOversize: (bytes) => {
        note(`[an SSE event of ${bytes} bytes, over the message limit; dropped]`)
        return ''
      },
      rewrite: (data) => {
        if (reply !== undefined) return undefined
        let message: unknown
        try {
          message = JSON.parse(data)
        } catch {
          note(`[SSE data is not JSON] ${data}`)
          return undefined
        }
        if (isObject(message) && typeof message.method === 'string') {
          if (message.id !== undefined) serverRequests.push(message.method)
          return undefined
        }
        const matchedBy = isObject(message) && message.id === id ? 'id' : 'order'
        reply = { kind: 'reply', message, text: data, matchedBy, httpStatus: response.status }
        return undefined
      },
    })
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return { kind: 'closed', detail: 'the SSE stream ended before a response arrived' }
        events.push(value)
        if (reply !== undefined) return reply
      }
    } finally {
      await reader.cancel().catch(() => {})
    }
  }

  return {
    noise,
    unsolicited,
    serverRequests,
    stderr: () => '',
    setProtocolVersion(version) {
      protocolVersion = version
    },
    async request(method, params, timeoutMs): Promise<Exchange> {
      const id = nextId++
      const started = performance.now()
      const outcome = await post(
        { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
        timeoutMs,
        id,
      )
      return { method, id, elapsedMs: Math.round(performance.now() - started), outcome }
    },
    async notify(method, params) {
      await post({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }, 2000, undefined)
    },
    async close() {
      for (const controller of inflight) controller.abort()
      if (sessionId === undefined) return
      // End the session the way a client does; a server that ignores DELETE is not a finding.
      await fetch(options.url, {
        method: 'DELETE',
        headers: headers(),
        signal: AbortSignal.timeout(1000),
      })
        .then((response) => response.body?.cancel())
        .catch(() => {})
    },
  }
}

/** The body's first {@link BODY_LIMIT} bytes; the rest is never read into memory. */
async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const parts: Uint8Array[] = []
  let size = 0
  try {
    while (size < BODY_LIMIT) {
      const { value, done } = await reader.read()
      if (done) break
      parts.push(value)
      size += value.length
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return Buffer.concat(parts).subarray(0, BODY_LIMIT).toString('utf8')
}
