import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { describeRepair, rewriteToolsListText } from './rewrite.ts'
import { CONNECTION_CLOSED, errorResponse, INTERNAL_ERROR, RequestTracker } from './tracker.ts'

/**
 * `dsh-harden mcp repair --upstream <url> --listen <host:port>`: a Streamable HTTP facade. Every request goes to the
 * upstream URL with its method, headers and body unchanged; responses come back byte for byte, except a response
 * (JSON or an SSE event) answering a `tools/list` in the request body, whose tools array is repaired where needed.
 */
export interface HttpRepairOptions {
  readonly upstream: string
  readonly host?: string | undefined
  /** 0 (default) picks a free port. */
  readonly port?: number | undefined
  readonly log?: ((line: string) => void) | undefined
  /** The server's name in diagnostics (default: the upstream URL's host). */
  readonly server?: string | undefined
  /** Largest request body accepted (default 64 MiB). */
  readonly maxBodyBytes?: number | undefined
  /** How long to wait for the upstream to accept a connection (default 10 s). */
  readonly connectTimeoutMs?: number | undefined
}

export interface HttpRepair {
  /** The facade's URL (same path as the upstream's). */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
])

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
  return out
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        resolve(undefined)
        req.removeAllListeners('data')
        req.resume()
        return
      }
      parts.push(chunk)
    })
    req.once('end', () => resolve(Buffer.concat(parts)))
    req.once('error', reject)
  })
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** Answers every request of a body with a JSON-RPC error (status 502/413), so the client fails fast, never hangs. */
function failRequests(
  res: ServerResponse,
  status: number,
  requests: readonly { id: string | number }[],
  message: string,
) {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const errors = requests.map((r) =>
    errorResponse(r.id, status === 413 ? INTERNAL_ERROR : CONNECTION_CLOSED, message),
  )
  const body =
    errors.length === 1
      ? errors[0]!
      : errors.length === 0
        ? errorResponse(null, CONNECTION_CLOSED, message)
        : `[${errors.join(',')}]`
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** Rewrites SSE events one at a time; events are separated by a blank line, each `data:` line is part of one message. */
class SseRewriter {
  private buffer = ''
  private readonly rewrite: (data: string) => string | undefined

  constructor(rewrite: (data: string) => string | undefined) {
    this.rewrite = rewrite
  }

  push(chunk: string): string {
    this.buffer += chunk
    let out = ''
    for (;;) {
      const match = /\r?\n\r?\n/.exec(this.buffer)
      if (match === null) break
      const event = this.buffer.slice(0, match.index)
      out += this.event(event) + match[0]
      this.buffer = this.buffer.slice(match.index + match[0].length)
    }
    return out
  }

  rest(): string {
    const rest = this.buffer
    this.buffer = ''
    return rest
  }

  private event(event: string): string {
    const lines = event.split(/\r?\n/)
    const data = lines
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
    if (data.length === 0) return event
    const rewritten = this.rewrite(data.join('\n'))
    if (rewritten === undefined) return event
    const others = lines.filter((l) => !l.startsWith('data:'))
    return [...others, `data: ${rewritten}`].join('\n')
  }
}

export async function startHttpRepair(options: HttpRepairOptions): Promise<HttpRepair> {
  const upstream = new URL(options.upstream)
  const log = options.log ?? ((line: string) => process.stderr.write(`dsh-harden mcp repair: ${line}\n`))
  const server = options.server ?? upstream.host
  const limit = options.maxBodyBytes ?? 64 * 1024 * 1024
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req, limit)
    const tracker = new RequestTracker()
    if (body === undefined) {
      log(`refused a ${req.method} body over ${limit} bytes`)
      failRequests(res, 413, [], `dsh-harden mcp repair: request body over ${limit} bytes`)
      return
    }
    const sent = body.length > 0 ? parse(body.toString('utf8')) : { ok: false as const }
    if (sent.ok) tracker.sent(sent.value)
    const requests = tracker.drain()
    for (const r of requests) tracker.sent({ id: r.id, method: r.method })
    const hasToolsList = requests.some((r) => r.method === 'tools/list')

    const rewrite = (text: string): string | undefined => {
      const parsed = parse(text)
      if (!parsed.ok) {
        log(`the upstream sent a message that is not JSON (${text.length} chars); passed through as it is`)
        return undefined
      }
      const outcome = hasToolsList
        ? rewriteToolsListText(text, parsed.value, tracker.isToolsList, server)
        : { text, repairs: [] }
      tracker.answered(parsed.value)
      for (const repair of outcome.repairs) log(describeRepair(repair))
      return outcome.text === text ? undefined : outcome.text
    }

    const target = new URL(upstream)
    target.search = new URL(req.url ?? '/', 'http://facade').search || upstream.search
    const outgoing = send(target, {
      method: req.method,
      headers: {
        ...forwardedHeaders(req.headers),
        ...(body.length > 0 ? { 'content-length': String(body.length) } : {}),
      },
    })
    const connectTimer = setTimeout(
      () => outgoing.destroy(new Error(`no connection within ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    )
    outgoing.once('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer)
      else socket.once('connect', () => clearTimeout(connectTimer))
    })
    outgoing.once('error', (error) => {
      clearTimeout(connectTimer)
      log(`the upstream ${upstream.href} failed: ${error.message}`)
      failRequests(
        res,
        502,
        requests,
        `dsh-harden mcp repair: the upstream MCP server failed: ${error.message}`,
      )
    })
    outgoing.once('response', (upstreamRes) => {
      clearTimeout(connectTimer)
      const type = String(upstreamRes.headers['content-type'] ?? '')
      const headers = forwardedHeaders(upstreamRes.headers)
      const status = upstreamRes.statusCode ?? 502
      if (!hasToolsList && !type.includes('text/event-stream')) {
        res.writeHead(status, upstreamRes.headers)
        upstreamRes.pipe(res)
        return
      }
      if (type.includes('application/json')) {
        const parts: Buffer[] = []
        upstreamRes.on('data', (chunk: Buffer) => parts.push(chunk))
        upstreamRes.once('end', () => {
          const original = Buffer.concat(parts)
          const rewritten = rewrite(original.toString('utf8'))
          const out = rewritten === undefined ? original : Buffer.from(rewritten)
          res.writeHead(status, { ...headers, 'content-length': String(out.length) })
          res.end(out)
        })
        upstreamRes.once('error', (error) =>
          failRequests(res, 502, requests, `dsh-harden mcp repair: ${error.message}`),
        )
        return
      }
      if (type.includes('text/event-stream')) {
        res.writeHead(status, headers)
        res.flushHeaders()
        const sse = new SseRewriter(rewrite)
        upstreamRes.setEncoding('utf8')
        upstreamRes.on('data', (chunk: string) => {
          const out = sse.push(chunk)
          if (out.length > 0) res.write(out)
        })
        const finish = (why: string | undefined) => {
          const rest = sse.rest()
          if (rest.length > 0) res.write(rest)
          const orphans = tracker.drain()
          if (why !== undefined && orphans.length > 0) {
            log(`the upstream ${why}; answered ${orphans.length} pending request(s) with a JSON-RPC error`)
            for (const r of orphans)
              res.write(
                `event: message\ndata: ${errorResponse(r.id, CONNECTION_CLOSED, `dsh-harden mcp repair: the upstream MCP server ${why} before answering ${r.method}`)}\n\n`,
              )
          }
          res.end()
        }
        upstreamRes.once('end', () => finish('ended the stream'))
        upstreamRes.once('aborted', () => finish('closed the connection'))
        upstreamRes.once('error', () => finish('closed the connection'))
        res.once('close', () => upstreamRes.destroy())
        return
      }
      res.writeHead(status, upstreamRes.headers)
      upstreamRes.pipe(res)
    })
    req.once('close', () => {
      if (!res.writableFinished) outgoing.destroy()
    })
    outgoing.end(body.length > 0 ? body : undefined)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`facade error: ${error instanceof Error ? error.message : String(error)}`)
      failRequests(res, 502, [], 'dsh-harden mcp repair: facade error')
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port, address } = http.address() as AddressInfo
  const hostText = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${hostText}:${port}${upstream.pathname}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      }),
  }
}
