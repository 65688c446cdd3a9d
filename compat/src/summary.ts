import type { ProfileId } from '@dsh-harden/tools'
import type { CompatReport, ProfileTotals } from './table.ts'

/**
 * What the README's totals region is generated from: the counts of one run, without the per-tool detail. A full
 * `pnpm compat` run writes it to `compat/results/summary.json` (committed), so the README can be checked against the
 * run it claims to show.
 */
export interface CompatSummary {
  readonly generatedAt: string
  /** Servers listed (a server that failed is not counted), and their tools. */
  readonly servers: number
  readonly tools: number
  readonly profiles: readonly ProfileId[]
  readonly judges: CompatReport['judges']
  readonly totals: Readonly<Record<ProfileId, ProfileTotals>>
}

export function summaryOf(report: CompatReport): CompatSummary {
  const listed = report.servers.filter((server) => server.failure === undefined)
  return {
    generatedAt: report.generatedAt,
    servers: listed.length,
    tools: listed.reduce((sum, server) => sum + server.tools.length, 0),
    profiles: report.profiles,
    judges: report.judges,
    totals: report.totals,
  }
}
