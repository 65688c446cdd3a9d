import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import {
  CONNECTION_CLOSED,
  checkListenAddress,
  edgeMessage,
  errorResponse,
  eventDataHead,
  hostAllowList,
  INTERNAL_ERROR,
  idKey,
  MAX_MESSAGE_BYTES,
  MAX_PENDING_REQUESTS,
  type PendingRequest,
  REQUEST_TIMEOUT,
  RequestTracker,
  refuseByHeaders,
  SseRewriter,
} from '@dsh-harden/mcp-transport'
import { namesButDoesNotAnswer, STILL_WAITS } from './dropped-message.ts'
import { describeRepair, rewriteToolsListText } from './rewrite.ts'
import { answersText, type OpenRoute, type ToolRoute } from './route.ts'

/**
 * `dsh-harden mcp repair --upstream <url> --listen <host:port>`: a Streamable HTTP facade. Requests to the upstream's
 * path go to the upstream with their method, headers and body unchanged except `Host` and `Origin`, which name the
 * upstream (after the facade checked them against its own allow-list, so the upstream's DNS-rebinding check is
 * done here and never defeated). Responses come back byte for byte, except a `tools/list` answer (JSON, or an SSE
 * event on any stream of the session, including the standalone GET stream), whose tools array is repaired where needed.
 * With a route, the tools go out as the route takes them and a request body's `tools/call` is mapped back first.
 */
export interface HttpRepairOptions {
  readonly upstream: string
  readonly host?: string | undefined
  /** 0 (default) picks a free port. */
  readonly port?: number | undefined
  /** Listening on a non-loopback address is refused unless this is set (then a warning is logged). */
  readonly allowNonLoopback?: boolean | undefined
  /** More host names clients may use to reach the facade (loopback names and the listen address always work). */
  readonly allowedHosts?: readonly string[] | undefined
  readonly log?: ((line: string) => void) | undefined
  /** The server's name in diagnostics (default: the upstream URL's host). */
  readonly server?: string | undefined
  /** Largest request body, buffered `tools/list` response and SSE event accepted (default 32 MiB). */
  readonly maxBodyBytes?: number | undefined
  /** How long to wait for the upstream to accept a connection (default 10 s). */
  readonly connectTimeoutMs?: number | undefined
  /** How long the upstream may stay silent while a request of ours waits for its answer (default 120 s). */
  readonly requestTimeoutMs?: number | undefined
  /** Serve the tools for this model route, one `ToolRoute` per MCP session; absent: repairs only. */
  readonly openRoute?: OpenRoute | undefined
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

/** How many sessions' pending requests are remembered (oldest forgotten first). */
const MAX_SESSIONS = 1024

interface Session {
  readonly tracker: RequestTracker
  readonly route: ToolRoute | undefined
}

function withoutHopByHop(headers: IncomingHttpHeaders): Record<string, string | string[]> {
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

/** An HTTP error whose body is a JSON-RPC error to every request of the body, so a client fails fast, never hangs. */
function failRequests(
  res: ServerResponse,
  status: number,
  requests: readonly PendingRequest[],
  code: number,
  message: string,
) {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const errors = requests.map((r) => errorResponse(r.id, code, message))
  const body =
    errors.length === 1
      ? errors[0]!
      : errors.length === 0
        ? errorResponse(null, code, message)
        : `[${errors.join(',')}]`
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** The request path, decoded; undefined when it is not a well-formed path. */
function requestPath(target: string | undefined): string | undefined {
  try {
    return decodeURIComponent(new URL(target ?? '/', 'http://facade.invalid').pathname)
  } catch {
    return undefined
  }
}

export async function startHttpRepair(options: HttpRepairOptions): Promise<HttpRepair> {
  const upstream = new URL(options.upstream)
  const log = options.log ?? ((line: string) => process.stderr.write(`dsh-harden mcp repair: ${line}\n`))
  const server = options.server ?? upstream.host
  const limit = options.maxBodyBytes ?? MAX_MESSAGE_BYTES
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
  const requestTimeoutMs = options.requestTimeoutMs ?? 120_000
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  const listenHost = options.host ?? '127.0.0.1'
  const warning = checkListenAddress(
    listenHost,
    options.allowNonLoopback === true,
    'mcp repair',
    '--allow-non-loopback',
  )
  const upstreamPath = decodeURIComponent(upstream.pathname)
  let hosts = hostAllowList(listenHost, options.port ?? 0, options.allowedHosts)
  // Pending requests per MCP session: a tools/list answer is recognised on whichever stream of the session it comes;
  // the session's route maps back the calls to the names its own listing served.
  const sessions = new Map<string, Session>()
  const sessionOf = (headers: IncomingHttpHeaders): Session => {
    const key = String(headers['mcp-session-id'] ?? '')
    let session = sessions.get(key)
    if (session === undefined) {
      session = {
        tracker: new RequestTracker({ maxPending: MAX_PENDING_REQUESTS }),
        route: options.openRoute?.(server),
      }
      sessions.set(key, session)
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!)
    }
    return session
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = refuseByHeaders(req.headers, hosts)
    if (refusal !== undefined) {
      log(`refused a request: ${refusal}`)
      failRequests(res, 403, [], INTERNAL_ERROR, `dsh-harden mcp repair: ${refusal}`)
      return
    }
    const path = requestPath(req.url)
    if (path === undefined) {
      failRequests(res, 400, [], INTERNAL_ERROR, 'dsh-harden mcp repair: malformed request path')
      return
    }
    if (path !== upstreamPath) {
      failRequests(res, 404, [], INTERNAL_ERROR, `dsh-harden mcp repair: the MCP endpoint is ${upstreamPath}`)
      return
    }
    const received = await readBody(req, limit)
    if (received === undefined) {
      log(`refused a ${req.method} body over ${limit} bytes`)
      failRequests(res, 413, [], INTERNAL_ERROR, `dsh-harden mcp repair: request body over ${limit} bytes`)
      return
    }
    const { tracker, route } = sessionOf(req.headers)
    const sent = received.length > 0 ? parse(received.toString('utf8')) : { ok: false as const }
    const outbound = sent.ok && route !== undefined ? route.toServer(sent.value) : { kind: 'same' as const }
    if (outbound.kind === 'answered') {
      const answer = answersText(outbound.answers)
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) })
      res.end(answer)
      return
    }
    const body = outbound.kind === 'changed' ? Buffer.from(JSON.stringify(outbound.message)) : received
    const ours = new RequestTracker()
    if (sent.ok) ours.sent(sent.value)
    const requests = ours.drain()
    for (const r of requests) tracker.sent({ id: r.id, method: r.method })
    const unanswered = () => requests.filter((r) => tracker.isPending(idKey(r.id)!))

    const rewrite = (text: string): string | undefined => {
      if (tracker.size === 0) return undefined
      const parsed = parse(text)
      if (!parsed.ok) {
        log(`the upstream sent a message that is not JSON (${text.length} chars); passed through as it is`)
        return undefined
      }
      const outcome = tracker.answersToolsList(parsed.value)
        ? rewriteToolsListText(text, parsed.value, tracker.isToolsList, server, route)
        : { text, repairs: [] }
      tracker.answered(parsed.value)
      for (const repair of outcome.repairs) log(describeRepair(repair))
      return outcome.text === text ? undefined : outcome.text
    }

    const target = new URL(upstream)
    target.search = new URL(req.url ?? '/', 'http://facade.invalid').search || upstream.search
    const headers = withoutHopByHop(req.headers)
    // Host is set by Node from the target; an Origin the facade accepted is the upstream's own origin to it.
    if (headers.origin !== undefined) headers.origin = upstream.origin
    const outgoing = send(target, {
      method: req.method,
      headers: { ...headers, ...(body.length > 0 ? { 'content-length': String(body.length) } : {}) },
    })

    // Silence while one of our requests waits is bounded: the waiting requests get a JSON-RPC error.
    let idleTimer: NodeJS.Timeout | undefined
    const stopIdle = () => clearTimeout(idleTimer)
    let onIdle = () => {}
    const armIdle = () => {
      stopIdle()
      if (requests.length > 0 && unanswered().length > 0)
        idleTimer = setTimeout(() => onIdle(), requestTimeoutMs)
    }
    const timedOutMessage = `dsh-harden mcp repair: the upstream MCP server sent nothing for ${requestTimeoutMs} ms`
    onIdle = () => {
      const waiting = unanswered()
      log(
        `the upstream sent nothing for ${requestTimeoutMs} ms; answered ${waiting.length} request(s) with a JSON-RPC error`,
      )
      forget(waiting)
      failRequests(res, 504, waiting, REQUEST_TIMEOUT, timedOutMessage)
      outgoing.destroy()
    }
    const forget = (list: readonly PendingRequest[]) => tracker.answered(list.map((r) => ({ id: r.id })))
    armIdle()

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
      stopIdle()
      if (res.writableEnded) return
      log(`the upstream ${upstream.href} failed: ${error.message}`)
      const waiting = unanswered()
      forget(waiting)
      failRequests(
        res,
        502,
        waiting,
        CONNECTION_CLOSED,
        `dsh-harden mcp repair: the upstream MCP server failed: ${error.message}`,
      )
    })
    outgoing.once('response', (upstreamRes) => {
      clearTimeout(connectTimer)
      armIdle()
      upstreamRes.on('data', armIdle)
      const type = String(upstreamRes.headers['content-type'] ?? '')
      const status = upstreamRes.statusCode ?? 502
      const waitsForToolsList = requests.some((r) => r.method === 'tools/list')
      if (type.includes('text/event-stream')) {
        relaySse(upstreamRes, status)
        return
      }
      if (!waitsForToolsList || !type.includes('application/json')) {
        upstreamRes.once('end', () => {
          stopIdle()
          // 202 Accepted: the answers come on another stream of the session (the GET stream), still to be rewritten.
          if (status !== 202) forget(requests)
        })
        res.writeHead(status, upstreamRes.headers)
        upstreamRes.pipe(res)
        return
      }
      const parts: Buffer[] = []
      let size = 0
      upstreamRes.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limit) {
          upstreamRes.destroy()
          stopIdle()
          const waiting = unanswered()
          forget(waiting)
          log(`the upstream's answer was over ${limit} bytes; answered the client with a JSON-RPC error`)
          failRequests(
            res,
            502,
            waiting,
            INTERNAL_ERROR,
            `dsh-harden mcp repair: the upstream's answer is over ${limit} bytes`,
          )
          return
        }
        parts.push(chunk)
      })
      upstreamRes.once('end', () => {
        stopIdle()
        if (res.headersSent) return
        const original = Buffer.concat(parts)
        const rewritten = rewrite(original.toString('utf8'))
        const out = rewritten === undefined ? original : Buffer.from(rewritten)
        res.writeHead(status, {
          ...withoutHopByHop(upstreamRes.headers),
          'content-length': String(out.length),
        })
        res.end(out)
      })
      upstreamRes.once('error', (error) => {
        stopIdle()
        const waiting = unanswered()
        forget(waiting)
        failRequests(res, 502, waiting, CONNECTION_CLOSED, `dsh-harden mcp repair: ${error.message}`)
      })
    })

    const relaySse = (upstreamRes: IncomingMessage, status: number) => {
      res.writeHead(status, withoutHopByHop(upstreamRes.headers))
      res.flushHeaders()
      const sse = new SseRewriter({
        rewrite,
        maxBytes: limit,
        onOversize: (bytes, head, tail) => {
          // Answered for only when the event reads as the response: one that merely names a pending request leaves
          // it to its real answer or to the request timeout.
          const owner = tracker.ownerOfDropped(edgeMessage(eventDataHead(head), tail))
          const over = `the upstream sent an event of ${bytes} bytes, over ${limit}`
          if (owner?.answered !== true) {
            log(
              owner === undefined
                ? `${over}; dropped`
                : `${over}, ${namesButDoesNotAnswer(owner.request)}; dropped, ${STILL_WAITS}`,
            )
            return ''
          }
          log(`${over}; dropped`)
          const { id, method } = owner.request
          return `event: message\ndata: ${errorResponse(id, INTERNAL_ERROR, `dsh-harden mcp repair: the upstream's answer to ${method} is ${bytes} bytes, over the ${limit}-byte limit`, { bytes })}\n\n`
        },
      })
      upstreamRes.setEncoding('utf8')
      upstreamRes.on('data', (chunk: string) => {
        const out = sse.push(chunk)
        if (out.length > 0) res.write(out)
        if (requests.length > 0 && unanswered().length === 0) stopIdle()
      })
      onIdle = () => {
        const waiting = unanswered()
        forget(waiting)
        log(
          `the upstream sent nothing for ${requestTimeoutMs} ms; answered ${waiting.length} request(s) with a JSON-RPC error`,
        )
        for (const r of waiting)
          res.write(`event: message\ndata: ${errorResponse(r.id, REQUEST_TIMEOUT, timedOutMessage)}\n\n`)
        res.end()
        upstreamRes.destroy()
      }
      let finished = false
      const finish = (why: string) => {
        if (finished) return
        finished = true
        stopIdle()
        const rest = sse.rest()
        if (rest.length > 0 && !res.writableEnded) res.write(rest)
        const orphans = unanswered()
        forget(orphans)
        if (orphans.length > 0 && !res.writableEnded) {
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
    }

    req.once('close', () => {
      if (!res.writableFinished) {
        stopIdle()
        outgoing.destroy()
      }
    })
    outgoing.end(body.length > 0 ? body : undefined)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`facade error: ${error instanceof Error ? error.message : String(error)}`)
      failRequests(res, 502, [], INTERNAL_ERROR, 'dsh-harden mcp repair: facade error')
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, listenHost, () => resolve())
  })
  const { port, address } = http.address() as AddressInfo
  hosts = hostAllowList(listenHost, port, options.allowedHosts)
  if (warning !== undefined) log(warning)
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
