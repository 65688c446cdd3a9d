/**
 * `pnpm compat`: lists every server of the corpus over stdio, judges every tool on every route before (stock) and
 * after (dsh-harden), and writes the page, the JSON and the totals into a directory it prints.
 *
 *   pnpm compat [--out <dir>] [--only <id,id>] [--no-browser]
 *
 * Default directory: `compat/out/` (git-ignored). `--no-browser` skips the Chromium check of the page. A full run (no
 * `--only`) also writes `compat/results/summary.json` and regenerates the README's totals region from it.
 */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { checkLayout, checkPage, chromiumMissing } from './browser.ts'
import { collectListings, reduceEnvironment } from './collect.ts'
import { RESULTS, writeReport, writeResults } from './report-files.ts'
import { compatServers, compatServersById } from './servers.ts'
import { summaryOf } from './summary.ts'
import { buildReport } from './table.ts'
import { totalsMarkdown } from './totals.ts'

// `pnpm run compat -- --only x` passes the `--` through.
const args = process.argv.slice(2)
const { values } = parseArgs({
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    out: { type: 'string' },
    only: { type: 'string' },
    'no-browser': { type: 'boolean', default: false },
  },
})

reduceEnvironment()
const outDir = resolve(values.out ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'out'))
const servers = values.only ? compatServersById(values.only.split(',')) : compatServers()

console.log(`compat: listing ${servers.length} MCP servers over stdio`)
const listings = await collectListings(servers, {
  onListed: (listing) =>
    console.log(
      `  ${listing.id} (${listing.packageName}@${listing.packageVersion}): ${
        listing.failure ? `FAILED: ${listing.failure}` : `${listing.tools.length} tools`
      }${listing.sdkRejection ? ' (the SDK rejects the whole page)' : ''}`,
    ),
})
console.log('compat: judging every tool on every route')
const report = await buildReport(listings)
const written = await writeReport(report, outDir)
console.log(`\n${totalsMarkdown(summaryOf(report))}`)
console.log(`page:   ${written.page}\njson:   ${written.json}\ntotals: ${written.totals}`)
if (!values.only) {
  await writeResults(report)
  console.log(`README totals regenerated from ${RESULTS.summary}`)
}

if (!values['no-browser']) {
  const missing = chromiumMissing()
  if (missing) console.log(`${missing}; page not checked`)
  else {
    const check = await checkPage(written.page, join(outDir, 'screenshot.png'))
    const layout = await checkLayout(written.page, join(outDir, 'screenshot-1400.png'))
    const hidden = layout.tables.filter((table) => !table.firstColumnVisible)
    const problems = [
      ...check.pageErrors,
      ...check.requests.map((url) => `the page requested ${url}`),
      ...(layout.bodyOverflow > 0
        ? [`the page overflows a 1400 px window by ${layout.bodyOverflow} px`]
        : []),
      ...hidden.map((table) => `the first column of #${table.section} leaves view when it scrolls`),
    ]
    console.log(
      `layout at ${layout.viewport.width}x${layout.viewport.height}: page overflow ${layout.bodyOverflow} px, first column in view in ${layout.tables.length - hidden.length}/${layout.tables.length} scrolled tables (${layout.screenshot})`,
    )
    console.log(
      `screenshot: ${check.screenshot} (matrix rows ${check.matrixRows}, detail: ${check.detailHeading})`,
    )
    if (problems.length > 0) {
      console.error(`compat: the page misbehaved in Chromium:\n  ${problems.join('\n  ')}`)
      process.exitCode = 1
    }
  }
}
const failed = listings.filter((listing) => listing.failure !== undefined)
if (failed.length > 0) {
  console.error(
    `compat: ${failed.length} server(s) could not be listed: ${failed.map((l) => l.id).join(', ')}`,
  )
  process.exitCode = 1
}
