import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  bearerToken,
  checkListenAddress,
  cookieValue,
  hostAllowList,
  newAccessToken,
  refuseByHeaders,
  tokenMatches,
} from '@dsh-harden/mcp-transport'
import { MAX_TIMER_DELAY_MS, MIN_IDLE_DISCONNECT_MS, parseListen } from './config.ts'
import type { GatewayStatusSource } from './status-types.ts'

/** The largest POST body the status route reads. */
export const STATUS_BODY_LIMIT = 4096
export const STATE_PATH = '/lazy-mcp/state'
export const PANEL_PREFIX = '/lazy-mcp/'

/** The panel's static files (owned by the panel): `packages/mcp/lazy-mcp/panel/`. */
export const DEFAULT_PANEL_DIR = fileURLToPath(new URL('../panel/', import.meta.url))

/** The query parameter that carries the per-start token in the printed panel URL. */
export const TOKEN_PARAM = 'token'

/**
 * A route hook run before the built-in ones (after the Host/Origin check); return true when it handled the request.
 * `authorized` says whether the request carried this start's token; a hook that changes state must require it.
 */
export type ExtraRoute = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  access: { readonly authorized: boolean },
) => boolean | Promise<boolean>

export interface StatusServerOptions {
  /** `host:port`; default `127.0.0.1:0` (a free loopback port). */
  readonly listen?: string | undefined
  /** Listening on a non-loopback address is refused unless this is set (then a warning is logged). */
  readonly allowNonLoopback?: boolean | undefined
  /** More host names the server may be reached by (a reverse proxy's name, say); loopback names always are. */
  readonly allowedHosts?: readonly string[] | undefined
  /** Where warnings go (default: stderr). */
  readonly warn?: ((line: string) => void) | undefined
  /** Where the panel's static files are; default {@link DEFAULT_PANEL_DIR}. Missing directory: 404 for the panel. */
  readonly panelDir?: string | undefined
  readonly extraRoutes?: readonly ExtraRoute[] | undefined
}

export interface StatusServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`; the state is at `${url}/lazy-mcp/state`, the panel at `${url}/lazy-mcp/`. */
  readonly url: string
  /** The panel URL with this start's token (`…/lazy-mcp/?token=…`): print it for the user, like Jupyter does. */
  readonly panelUrl: string
  /** This start's token: `Authorization: Bearer <token>` on every state request from a program. */
  readonly token: string
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

/** The panel-relative file a path names; a path that does not decode, or holds a NUL, is a 400. */
function panelFile(pathname: string): string {
  let relative: string
  try {
    relative = decodeURIComponent(pathname.slice(PANEL_PREFIX.length))
  } catch {
    throw new HttpError(400, `malformed percent-encoding in path ${JSON.stringify(pathname)}`)
  }
  if (relative.includes('\0')) throw new HttpError(400, 'a NUL byte in the path')
  return relative || 'index.html'
}

async function servePanel(dir: string, pathname: string, response: ServerResponse): Promise<boolean> {
  const relative = panelFile(pathname)
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
 *
 * Every request is checked in this order: `Host` on the allow-list (loopback names, the listen address, and
 * `allowedHosts`), `Origin` (when sent) on the same list, then for the state route this start's token: a bearer
 * header, or the `HttpOnly; SameSite=Strict` cookie the panel receives when opened through {@link StatusServer.panelUrl}.
 * The state names servers and their last errors, so reading it needs the token as well as writing.
 */
export async function startStatusServer(
  source: GatewayStatusSource,
  options: StatusServerOptions = {},
): Promise<StatusServer> {
  const { host, port } = parseListen(options.listen ?? '127.0.0.1:0')
  const warning = checkListenAddress(
    host,
    options.allowNonLoopback === true,
    'lazy-mcp status',
    'statusAllowNonLoopback: true',
  )
  const panelDir = options.panelDir ?? DEFAULT_PANEL_DIR
  const token = newAccessToken()
  let hosts = hostAllowList(host, port, options.allowedHosts)
  let cookie = ''
  const authorized = (request: IncomingMessage): boolean =>
    tokenMatches(bearerToken(request.headers) ?? cookieValue(request.headers, cookie), token)

  const server = createServer(async (request, response) => {
    try {
      const refusal = refuseByHeaders(request.headers, hosts)
      if (refusal !== undefined) throw new HttpError(403, refusal)
      let url: URL
      try {
        url = new URL(request.url ?? '/', 'http://status.invalid')
      } catch {
        throw new HttpError(400, 'malformed request target')
      }
      const access = { authorized: authorized(request) }
      for (const route of options.extraRoutes ?? []) if (await route(request, response, url, access)) return
      if (url.pathname === STATE_PATH) {
        if (!access.authorized)
          throw new HttpError(
            401,
            "this start's token is required: open the panel URL the gateway printed, or send Authorization: Bearer <token>",
          )
        if (request.method === 'GET' || request.method === 'HEAD')
          return send(response, 200, source.snapshot())
        if (request.method === 'POST' || request.method === 'DELETE') {
          if (request.method === 'POST')
            await source.setIdleDisconnectMs(parseIdleBody(await readBody(request)))
          else await source.clearIdleDisconnectMs()
          return send(response, 200, source.snapshot())
        }
        response.setHeader('allow', 'GET, POST, DELETE')
        throw new HttpError(405, `${request.method} is not allowed on ${STATE_PATH}`)
      }
      if (request.method === 'GET' && url.pathname === '/lazy-mcp') {
        response.writeHead(302, { location: PANEL_PREFIX + url.search })
        response.end()
        return
      }
      const presented = url.searchParams.get(TOKEN_PARAM)
      if (request.method === 'GET' && url.pathname === PANEL_PREFIX && presented !== null) {
        // The printed URL's token becomes a same-site, script-invisible cookie; the address bar loses the token.
        if (!tokenMatches(presented, token))
          throw new HttpError(401, 'wrong token: open the panel URL the gateway printed at this start')
        url.searchParams.delete(TOKEN_PARAM)
        response.writeHead(303, {
          location: PANEL_PREFIX + url.search,
          'set-cookie': `${cookie}=${token}; Path=/lazy-mcp; HttpOnly; SameSite=Strict`,
          'cache-control': 'no-store',
        })
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
  // Port 0 picked a free port: the allow-list and the cookie name use the real one.
  hosts = hostAllowList(host, address.port, options.allowedHosts)
  cookie = `lazy-mcp-token-${address.port}`
  if (warning !== undefined) (options.warn ?? ((line) => process.stderr.write(`${line}\n`)))(warning)
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${shownHost}:${address.port}`
  return {
    url,
    panelUrl: `${url}${PANEL_PREFIX}?${TOKEN_PARAM}=${token}`,
    token,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
