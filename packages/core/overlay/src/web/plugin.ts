import { randomBytes } from 'node:crypto'
import type { Context } from '@deepseek-ai/cordis'
import { rawTools } from '../dsh/registry.ts'
import { verdictLedgerOf } from '../dsh/verdicts.ts'
import { lintCommand } from '../gate/notices.ts'
import { type ContractsHandler, contractsHandler } from './contracts-route.ts'
import { contractsView } from './contracts-view.ts'
import { type LoaderFace, packagesByPluginName } from './plugin-packages.ts'
import { CONTRACTS_CHANNEL } from './wire.ts'

/**
 * The part of rc.8's `ctx.connection` (`@deepseek-ai/dsh-client-connection`, `HostConnectionService.rpc`) this row
 * uses: a channel whose requests pass DSH's own `/api` trust fence with the deployment's `trustedHosts` first.
 */
export interface ConnectionFace {
  readonly rpc: {
    handle(
      channel: string,
      handler: ContractsHandler,
      options: { readonly authority: 'trusted-host' | 'loopback' },
    ): () => Promise<void>
  }
}

export const name = 'dsh-harden-web'
export const inject = ['tools']

/**
 * The host half of the Web UI's *Tool contracts* panel. It reads the verdict ledger of the session's tool registry
 * (what the overlay row decided about each tool) and serves it read-only on DSH's own connection, at
 * `POST /dsh-harden/tool-contracts`, once that connection exists: in a headless profile there is none, and this row
 * does nothing (a required `connection` inject would leave it pending, and rc.8's boot audit fails a pending row).
 */
export function apply(ctx: Context): void {
  const ledger = verdictLedgerOf(rawTools(ctx))
  // A per-start prefix: a revision the browser got from an earlier start never matches this start's views.
  const start = randomBytes(6).toString('hex')
  // The ledger's own revision moves on every verdict and every tool that left (a plugin disposed), so a view a tool
  // only left is never served as unchanged.
  const revision = () => `${start}-${ledger.revision}`
  const handler = contractsHandler({
    revision,
    view: () =>
      contractsView(ledger.snapshot(), revision(), {
        // Read per view: a plugin added while `dsh web` runs has a loader row from then on.
        packages: packagesByPluginName(ctx.get('loader') as LoaderFace | undefined),
        lintCommand: lintCommand(),
      }),
  })
  ctx.inject(['connection'], (connected) => {
    // The channel belongs to this fiber: `handle` ties its route to the calling context's lifetime.
    ;(connected as unknown as { connection: ConnectionFace }).connection.rpc.handle(
      CONTRACTS_CHANNEL,
      handler,
      {
        authority: 'trusted-host',
      },
    )
  })
}
