import type { CompatSummary } from './summary.ts'

/**
 * The totals table: per route, how many tools are usable before (stock) and after, and the measurements behind the
 * after column. Usable = sent as is + repaired + projected with a decoder; blind tools are usable but counted apart,
 * and meaning kept counts only tools that are not blind.
 */
export function totalsMarkdown(summary: CompatSummary): string {
  const lines = [
    '| route | tools | usable before (stock) | of which lost at intake | usable before, as pi-ai sends it | usable after | as-is / repaired / decoded / refused | blind (usable, schema names nothing) | meaning kept (tools not blind) | usable after: judge refused / changed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |',
  ]
  for (const profile of summary.profiles) {
    const t = summary.totals[profile]
    const a = t.after
    const judged = Object.entries(t.judges).map(
      ([judge, counts]) => `${judge} ${counts.refusedAfter}/${counts.changedAfter}`,
    )
    lines.push(
      `| ${profile} | ${t.tools} | ${t.before.usable} | ${t.before.lostAtIntake} | ${t.before.usableViaPiAi ?? '–'} | ${a.usable} | ${a['as-is']} / ${a.repaired} / ${a.decoded} / ${a.refused} | ${a.blind} | ${t.meaning.keptAll}/${t.meaning.measured}${t.meaning.lost ? ` (${t.meaning.lost} lost)` : ''} | ${judged.join(', ') || '–'} |`,
    )
  }
  const ran = summary.judges.filter((judge) => judge.runs > 0)
  const idle = summary.judges.filter((judge) => judge.runs === 0)
  const judges = [
    `Judges that ran: ${ran.map((judge) => `\`${judge.id}\` (${judge.profiles.join(', ')}; ${judge.runs} schemas)`).join(', ') || 'none'}.`,
    ...(idle.length > 0
      ? [
          `Not run (no column of this run stands for their routes): ${idle.map((judge) => `\`${judge.id}\``).join(', ')}.`,
        ]
      : []),
  ]
  return `${summary.servers} servers, ${summary.tools} tools (generated ${summary.generatedAt}).\n\n${lines.join('\n')}\n\n${judges.join('\n')}\n`
}
