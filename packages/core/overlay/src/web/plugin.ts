import { randomBytes } from 'node:crypto'
import type { Context } from '@deepseek-ai/cordis'
import { hostAllowList } from '@dsh-harden/mcp-transport'
import { rawTools } from '../dsh-registry.ts'
import { verdictLedgerOf } from '../verdicts.ts'
import { contractsRoute } from './contracts-route.ts'
import { contractsView } from './contracts-view.ts'
import { CONTRACTS_PATH } from './wire.ts'

/** The part of rc.8's `ctx.webServer` (`@deepseek-ai/dsh-host-webserver`, class `WebServer`) this row uses. */
export interface WebServerFace {
  readonly host: string
  readonly port: number
  register(route: {
    kind: 'exact' | 'prefix'
    path: string
    handler: ReturnType<typeof contractsRoute>
  }): () => void
}

/** rc.8's `ctx.webRuntime` (`@deepseek-ai/dsh-web-app`): the `--trusted-host` authorities the `/api` fence accepts. */
interface WebRuntimeFace {
  readonly trustedHosts?: readonly string[]
}

/** A `trustedHosts` entry is `host` or `host:port`; the allow-list takes names (the port is the server's). */
function hostName(authority: string): string {
  return authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.split(':')[0]!
}

export const name = 'dsh-harden-web'
export const inject = ['tools']

/**
 * The host half of the Web UI's *Tool contracts* panel. It reads the verdict ledger of the session's tool registry
 * (what the overlay row decided about each tool) and serves it read-only at {@link CONTRACTS_PATH} on DSH's own web
 * server, once that server exists: in a headless profile there is none, and this row does nothing (a required
 * `webServer` inject would leave it pending, and rc.8's boot audit fails a pending row).
 */
export function apply(ctx: Context): void {
  const ledger = verdictLedgerOf(rawTools(ctx))
  // A per-start prefix: a browser's cached ETag from an earlier start never matches this start's views.
  const start = randomBytes(6).toString('hex')
  let recorded = 0
  ctx.effect(
    () =>
      ledger.subscribe(() => {
        recorded++
      }),
    'dsh-harden-web: count verdicts',
  )
  const revision = () => `${start}-${recorded}`
  ctx.inject(['webServer'], (web) => {
    const server = (web as unknown as { webServer: WebServerFace }).webServer
    // Read per request: the web runtime (and the server's real port) may arrive after this row starts.
    const trusted = () => (web.get('webRuntime') as WebRuntimeFace | undefined)?.trustedHosts ?? []
    const handler = contractsRoute({
      hosts: () => hostAllowList(server.host, server.port, trusted().map(hostName)),
      revision,
      view: () => contractsView(ledger.snapshot(), revision()),
    })
    web.effect(
      () => server.register({ kind: 'exact', path: CONTRACTS_PATH, handler }),
      `dsh-harden-web: GET ${CONTRACTS_PATH}`,
    )
  })
}
