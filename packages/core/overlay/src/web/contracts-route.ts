import type { IncomingMessage, ServerResponse } from 'node:http'
import { type HostAllowList, refuseByHeaders } from '@dsh-harden/mcp-transport'
import type { ContractsView } from './wire.ts'

/** What the route needs from its plugin: the allow-list of the server it is mounted on, and the current view. */
export interface ContractsRouteSource {
  /** Read per request: the server's port is only known once it listens. */
  hosts(): HostAllowList
  revision(): string
  view(): ContractsView
}

function sendJson(response: ServerResponse, status: number, body: unknown, etag?: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...(etag === undefined ? {} : { etag }),
  })
  response.end(`${JSON.stringify(body)}\n`)
}

/**
 * `GET /dsh-harden/tool-contracts`: the panel's view, read-only. Checked like the lazy-mcp status server, before
 * anything else: `Host` must be a name this server is reached by (DNS-rebinding defence), then `Origin`, when sent,
 * one of the same; a request a browser marks `Sec-Fetch-Site: cross-site` is refused too. No token: the route sits on
 * DSH's own web server, same-origin with the page, and says no more than the page already shows (tool names and
 * why each was refused). The body is bounded by `VIEW_LIMITS`; an unchanged view is a 304 (`If-None-Match`).
 */
export function contractsRoute(
  source: ContractsRouteSource,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const refusal =
      refuseByHeaders(request.headers, source.hosts()) ??
      (request.headers['sec-fetch-site'] === 'cross-site'
        ? 'a cross-site request may not read the tool contracts'
        : undefined)
    if (refusal !== undefined) return sendJson(response, 403, { error: refusal })
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD')
      return sendJson(response, 405, {
        error: `${request.method} is not allowed: the tool contracts are read-only`,
      })
    }
    const etag = `"${source.revision()}"`
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag, 'cache-control': 'no-cache' })
      response.end()
      return
    }
    sendJson(response, 200, source.view(), etag)
  }
}
