import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

/**
 * The DNS-rebinding defence shared by every local HTTP listener of ours (the repair facade and the lazy-mcp status
 * server). After a rebinding, a hostile page's requests reach a loopback port with `Host: attacker.example:port` and
 * a matching `Origin`, so comparing the two proves nothing; only an allow-list of the names this listener is really
 * reached by does. The MCP spec asks local servers for exactly this (basic/security_best_practices, "Local MCP
 * Server Compromise"); the SDK's `hostHeaderValidation` middleware does the same for its own Express apps.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1']
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', ''])

/** Whether `host` is a name or address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || bare === '::ffff:127.0.0.1'
}

/** Thrown before listening on a non-loopback address without the explicit opt-in. */
export class NonLoopbackListenError extends Error {
  override readonly name = 'NonLoopbackListenError'
}

/**
 * Refuses a non-loopback bind address unless `allow` is set; with it, returns the warning to print (anyone on the
 * network can then reach the listener, limited only by the Host allow-list and whatever the listener checks).
 */
export function checkListenAddress(
  host: string,
  allow: boolean,
  what: string,
  flag: string,
): string | undefined {
  if (isLoopbackHost(host)) return undefined
  if (!allow)
    throw new NonLoopbackListenError(
      `${what}: refusing to listen on ${JSON.stringify(host)}, which is not a loopback address; other machines could reach it. ` +
        `Use 127.0.0.1 (the default), or pass ${flag} if you really mean to expose it.`,
    )
  return `${what}: listening on ${host}, reachable from other machines (${flag}); only requests naming an allowed host are served`
}

export interface HostAllowList {
  /** Lower-case host names without brackets or port. */
  readonly names: ReadonlySet<string>
  /** The port requests must name (the listener's real port). */
  readonly port: number
}

/**
 * The names a listener bound to `listenHost:port` is legitimately reached by: the loopback names, the bind address
 * itself, any `extra` names the user configured, and for a wildcard bind (only with the explicit opt-in) this
 * machine's interface addresses.
 */
export function hostAllowList(
  listenHost: string,
  port: number,
  extra: readonly string[] = [],
): HostAllowList {
  const names = new Set(LOOPBACK_NAMES)
  const bare = listenHost.replace(/^\[|\]$/g, '').toLowerCase()
  if (WILDCARDS.has(bare)) {
    for (const list of Object.values(networkInterfaces()))
      for (const info of list ?? []) names.add(info.address.toLowerCase())
  } else names.add(bare)
  for (const name of extra) names.add(name.replace(/^\[|\]$/g, '').toLowerCase())
  return { names, port }
}

/** `host[:port]` or `[v6][:port]` → its parts; undefined when it is not that shape. */
function splitHostPort(text: string): { name: string; port: number | undefined } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s/@]+))(?::(\d{1,5}))?$/.exec(text)
  if (!match) return undefined
  return {
    name: (match[1] ?? match[2])!.toLowerCase(),
    port: match[3] === undefined ? undefined : Number(match[3]),
  }
}

function allowed(list: HostAllowList, authority: string, defaultPort: number): boolean {
  const parts = splitHostPort(authority)
  if (!parts) return false
  return list.names.has(parts.name) && (parts.port ?? defaultPort) === list.port
}

/**
 * Why a request must be refused by its `Host` and `Origin` headers, or undefined when both are allowed. Checked
 * before anything else is read. `Origin` is optional (non-browser clients send none); when present it must be an
 * `http:` origin on the allow-list too (a page on another port of localhost is another origin).
 */
export function refuseByHeaders(headers: IncomingHttpHeaders, list: HostAllowList): string | undefined {
  const host = headers.host
  if (typeof host !== 'string' || !allowed(list, host, 80))
    return `Host ${JSON.stringify(host ?? '')} is not one this server answers to (DNS rebinding protection); use http://127.0.0.1:${list.port}`
  const origin = headers.origin
  if (origin === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return `Origin ${JSON.stringify(origin)} is not a URL`
  }
  if (parsed.protocol !== 'http:' || !allowed(list, parsed.host, 80))
    return `Origin ${JSON.stringify(origin)} may not call this server (cross-origin requests are refused)`
  return undefined
}

/** A fresh unguessable token (256 bits, URL-safe), one per listener start. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false
  const a = Buffer.from(presented)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')
  return match?.[1]
}

/** One cookie's value from a `Cookie` header. */
export function cookieValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}
