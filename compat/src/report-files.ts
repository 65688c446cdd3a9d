import { spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderPage } from './page.ts'
import { withTotals } from './readme-totals.ts'
import { summaryOf } from './summary.ts'
import type { CompatReport } from './table.ts'
import { totalsMarkdown } from './totals.ts'

export interface WrittenReport {
  readonly dir: string
  readonly page: string
  readonly json: string
  readonly totals: string
}

/** Writes `compat.html`, `compat.json` and `totals.md` into `dir` (created when missing). */
export async function writeReport(report: CompatReport, dir: string): Promise<WrittenReport> {
  await mkdir(dir, { recursive: true })
  const written = {
    dir,
    page: join(dir, 'compat.html'),
    json: join(dir, 'compat.json'),
    totals: join(dir, 'totals.md'),
  }
  await writeFile(written.page, renderPage(report))
  await writeFile(written.json, `${JSON.stringify(report, null, 1)}\n`)
  await writeFile(written.totals, totalsMarkdown(summaryOf(report)))
  return written
}

/** Where a full run leaves what the README's totals are generated from, and the README itself. */
export const RESULTS = {
  summary: fileURLToPath(new URL('../results/summary.json', import.meta.url)),
  readme: fileURLToPath(new URL('../README.md', import.meta.url)),
}

/**
 * After a full run (every server of the corpus): `results/summary.json` gets the run's counts and the README's
 * totals region is regenerated from them, so the README never shows numbers another run gave.
 */
export async function writeResults(report: CompatReport, files = RESULTS): Promise<void> {
  const summary = summaryOf(report)
  await mkdir(dirname(files.summary), { recursive: true })
  await writeFile(files.summary, `${JSON.stringify(summary, null, 2)}\n`)
  await writeFile(files.readme, withTotals(await readFile(files.readme, 'utf8'), summary))
  formatLikeTheRepository([files.summary, files.readme])
}

// The repository's `biome check .` must stay clean on what a run commits: its formatter aligns the README's tables
// and folds short JSON arrays, so both files are written the way it would write them.
function formatLikeTheRepository(paths: readonly string[]): void {
  const run = spawnSync('pnpm', ['exec', 'biome', 'format', '--write', ...paths], { encoding: 'utf8' })
  if (run.status !== 0)
    throw new Error(
      `compat: biome could not format ${paths.join(', ')} (fix: run \`pnpm install\` at the repository root): ${run.stderr || run.error?.message}`,
    )
}
