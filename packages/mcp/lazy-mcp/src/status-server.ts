import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MAX_TIMER_DELAY_MS, MIN_IDLE_DISCONNECT_MS, parseListen } from './config.ts'
import type { GatewayStatusSource } from './status-types.ts'

/** The largest POST body the status route reads. */
export const STATUS_BODY_LIMIT = 4096
export const STATE_PATH = '/lazy-mcp/state'
export const PANEL_PREFIX = '/lazy-mcp/'

/** The panel's static files (owned by the panel): `packages/mcp/lazy-mcp/panel/`. */
export const DEFAULT_PANEL_DIR = fileURLToPath(new URL('../panel/', import.meta.url))

/** A route hook run before the built-in ones; return true when it handled the request. */
export type ExtraRoute = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>

export interface StatusServerOptions {
  /** `host:port`; default `127.0.0.1:0` (a free loopback port). */
  readonly listen?: string | undefined
  /** Where the panel's static files are; default {@link DEFAULT_PANEL_DIR}. Missing directory: 404 for the panel. */
  readonly panelDir?: string | undefined
  readonly extraRoutes?: readonly ExtraRoute[] | undefined
}

export interface StatusServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`; the state is at `${url}/lazy-mcp/state`, the panel at `${url}/lazy-mcp/`. */
  readonly url: string
  close(): Promise<void>
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : `${JSON.stringify(body)}\n`
  response.writeHead(status, {
    'content-type':
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  response.end(text)
}

class HttpError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

/** Reads at most {@link STATUS_BODY_LIMIT} bytes; more is a 413 before anything is parsed or written. */
function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > STATUS_BODY_LIMIT)
    return Promise.reject(new HttpError(413, `body exceeds ${STATUS_BODY_LIMIT} bytes`))
  return new Promise((done, fail) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > STATUS_BODY_LIMIT) {
        fail(new HttpError(413, `body exceeds ${STATUS_BODY_LIMIT} bytes`))
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')))
    request.on('error', fail)
  })
}

/** `{ "idleDisconnectMs": <integer ms in range> }` and nothing else, or an HttpError 400 saying what is wrong. */
export function parseIdleBody(text: string): number {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'body must be JSON: { "idleDisconnectMs": <milliseconds> }')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new HttpError(400, 'body must be an object: { "idleDisconnectMs": <milliseconds> }')
  const extra = Object.keys(parsed).filter((key) => key !== 'idleDisconnectMs')
  if (extra.length > 0)
    throw new HttpError(400, `unknown field ${JSON.stringify(extra[0])}; only idleDisconnectMs`)
  const ms = (parsed as { idleDisconnectMs?: unknown }).idleDisconnectMs
  if (
    typeof ms !== 'number' ||
    !Number.isInteger(ms) ||
    ms < MIN_IDLE_DISCONNECT_MS ||
    ms > MAX_TIMER_DELAY_MS
  )
    throw new HttpError(
      400,
      `idleDisconnectMs must be an integer in ${MIN_IDLE_DISCONNECT_MS}…${MAX_TIMER_DELAY_MS} (milliseconds)`,
    )
  return ms
}

/** A write from a page on another origin is refused (DNS rebinding, cross-site form posts). */
function crossOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin
  if (origin === undefined) return false
  try {
    return new URL(origin).host !== request.headers.host
  } catch {
    return true
  }
}

async function servePanel(dir: string, pathname: string, response: ServerResponse): Promise<boolean> {
  const relative = decodeURIComponent(pathname.slice(PANEL_PREFIX.length)) || 'index.html'
  const root = resolve(dir)
  const file = resolve(root, normalize(relative))
  if (file !== root && !file.startsWith(root + sep)) return false
  try {
    const info = await stat(file)
    const target = info.isDirectory() ? join(file, 'index.html') : file
    const body = await readFile(target)
    response.writeHead(200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    response.end(body)
    return true
  } catch {
    return false
  }
}

/**
 * The gateway's status HTTP server: `GET /lazy-mcp/state` (a snapshot; reading never wakes a server),
 * `POST /lazy-mcp/state { idleDisconnectMs }` (validated before anything is written), `DELETE /lazy-mcp/state`
 * (drop the override), and the panel's static files under `/lazy-mcp/`.
 */
export async function startStatusServer(
  source: GatewayStatusSource,
  options: StatusServerOptions = {},
): Promise<StatusServer> {
  const { host, port } = parseListen(options.listen ?? '127.0.0.1:0')
  const panelDir = options.panelDir ?? DEFAULT_PANEL_DIR
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://status.invalid')
      for (const route of options.extraRoutes ?? []) if (await route(request, response, url)) return
      if (url.pathname === STATE_PATH) {
        if (request.method === 'GET' || request.method === 'HEAD')
          return send(response, 200, source.snapshot())
        if (request.method === 'POST' || request.method === 'DELETE') {
          if (crossOrigin(request)) throw new HttpError(403, 'cross-origin writes are refused')
          if (request.method === 'POST')
            await source.setIdleDisconnectMs(parseIdleBody(await readBody(request)))
          else await source.clearIdleDisconnectMs()
          return send(response, 200, source.snapshot())
        }
        response.setHeader('allow', 'GET, POST, DELETE')
        throw new HttpError(405, `${request.method} is not allowed on ${STATE_PATH}`)
      }
      if (request.method === 'GET' && url.pathname === '/lazy-mcp') {
        response.writeHead(302, { location: PANEL_PREFIX })
        response.end()
        return
      }
      if (request.method === 'GET' && url.pathname.startsWith(PANEL_PREFIX))
        if (await servePanel(panelDir, url.pathname, response)) return
      throw new HttpError(404, 'not found')
    } catch (error) {
      if (response.headersSent) {
        response.destroy()
        return
      }
      if (error instanceof HttpError) send(response, error.status, { error: error.message })
      else if (error instanceof RangeError) send(response, 400, { error: error.message })
      else send(response, 500, { error: error instanceof Error ? error.message : String(error) })
    }
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(port, host, () => {
      server.off('error', fail)
      done()
    })
  })
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
