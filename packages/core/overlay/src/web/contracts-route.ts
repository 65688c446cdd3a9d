import { CONTRACTS_ENDPOINT, type ContractsReply, type ContractsView } from './wire.ts'

/** What the endpoint needs from its plugin: the current revision and view. */
export interface ContractsRouteSource {
  revision(): string
  view(): ContractsView
}

/** rc.8's `RpcResult` (`@deepseek-ai/dsh-host-apiproxy/api`), the two shapes this endpoint answers with. */
export type ContractsResult =
  | { readonly ok: true; readonly value: ContractsReply }
  | {
      readonly ok: false
      readonly error: {
        readonly code: 'bad-request'
        readonly message: string
        readonly details: { issues: [] }
      }
    }

/** rc.8's `ConnectionRpcHandler` (`@deepseek-ai/dsh-client-connection`): the envelope is decoded, the fence passed. */
export type ContractsHandler = (endpoint: string, payload: unknown) => Promise<ContractsResult>

function badRequest(message: string): ContractsResult {
  return { ok: false, error: { code: 'bad-request', message, details: { issues: [] } } }
}

function revisionOf(payload: unknown): string | null | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined
  const revision = (payload as { revision?: unknown }).revision
  return revision === null || typeof revision === 'string' ? revision : undefined
}

/**
 * The panel's endpoint, read-only. DSH's connection decodes the request and, before that, applies its own `/api`
 * trust fence (`isTrustedApiRequest` with the deployment's `trustedHosts`: loopback on any port, `--trusted-host`
 * entries, the LAN literals `dsh web` derives; an `Origin` naming the same host; no `Sec-Fetch-Site: cross-site`), so
 * this endpoint trusts exactly what the rest of DSH's API trusts. A request naming the revision the browser already
 * shows gets `{ unchanged: true }` instead of the view. The view is bounded by `VIEW_LIMITS`.
 */
export function contractsHandler(source: ContractsRouteSource): ContractsHandler {
  return async (endpoint, payload) => {
    if (endpoint !== CONTRACTS_ENDPOINT)
      return badRequest(
        `${JSON.stringify(endpoint)} is not an endpoint of dsh-harden: use ${CONTRACTS_ENDPOINT}`,
      )
    const known = revisionOf(payload)
    if (known === undefined)
      return badRequest(
        'the payload must be { revision: string | null } (the revision the panel shows, or null)',
      )
    const revision = source.revision()
    if (known === revision) return { ok: true, value: { unchanged: true, revision } }
    return { ok: true, value: source.view() }
  }
}
