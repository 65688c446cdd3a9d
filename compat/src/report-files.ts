import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { renderPage } from './page.ts'
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
  await writeFile(written.totals, totalsMarkdown(report))
  return written
}
