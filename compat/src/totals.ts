import type { CompatReport } from './table.ts'

/**
 * The closing note's table: per route, how many tools are usable before (stock) and after, and the measurements
 * behind the after column. Usable = sent as is + repaired + projected with a decoder.
 */
export function totalsMarkdown(report: CompatReport): string {
  const servers = report.servers.filter((server) => server.failure === undefined).length
  const lines = [
    '| route | tools | usable before (stock) | of which lost at intake | usable before, as pi-ai sends it | usable after | as-is / repaired / decoded / refused | meaning kept (tools) | usable after: judge refused / changed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |',
  ]
  for (const profile of report.profiles) {
    const t = report.totals[profile]
    const a = t.after
    const judged = Object.entries(t.judges).map(
      ([judge, counts]) => `${judge} ${counts.refusedAfter}/${counts.changedAfter}`,
    )
    lines.push(
      `| ${profile} | ${t.tools} | ${t.before.usable} | ${t.before.lostAtIntake} | ${t.before.usableViaPiAi ?? '–'} | ${a.usable} | ${a['as-is']} / ${a.repaired} / ${a.decoded} / ${a.refused} | ${t.meaning.keptAll}/${t.meaning.measured}${t.meaning.lost ? ` (${t.meaning.lost} lost)` : ''} | ${judged.join(', ') || '–'} |`,
    )
  }
  return `${servers} servers, ${report.servers.reduce((sum, s) => sum + s.tools.length, 0)} tools (generated ${report.generatedAt}).\n\n${lines.join('\n')}\n`
}
