import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { markdownAsRead, readmeTotals, TOTALS_END, TOTALS_START, withTotals } from '../src/readme-totals.ts'
import { RESULTS } from '../src/report-files.ts'
import type { CompatSummary } from '../src/summary.ts'
import { totalsMarkdown } from '../src/totals.ts'

const readme = readFileSync(RESULTS.readme, 'utf8')

describe("the README's totals", () => {
  it('are exactly what the last full run left in results/summary.json (fix: run `pnpm compat` and commit both)', () => {
    const summary = JSON.parse(readFileSync(RESULTS.summary, 'utf8')) as CompatSummary
    expect(markdownAsRead(readmeTotals(readme))).toBe(markdownAsRead(totalsMarkdown(summary)))
  })

  it('have one generated region and no hand-copied totals table outside it', () => {
    const outside = readme.replace(readmeTotals(readme), '')
    expect(readme.split(TOTALS_START)).toHaveLength(2)
    expect(outside).not.toContain('| usable before (stock) |')
    expect(outside).not.toMatch(/^\| deepseek +\| +\d+/m)
  })
})

describe('reading Markdown as it reads', () => {
  it('ignores the padding a formatter adds to a table, and nothing else', () => {
    const plain = '| route | tools |\n| --- | ---: |\n| deepseek | 514 |\n\nJudges that ran: `pi-ai`.\n'
    const padded =
      '| route    | tools |\n| -------- | ----: |\n| deepseek |   514 |\n\nJudges that ran: `pi-ai`.'
    expect(markdownAsRead(padded)).toBe(markdownAsRead(plain))
    expect(markdownAsRead(padded.replace('514', '513'))).not.toBe(markdownAsRead(plain))
    expect(markdownAsRead(padded.replace('----:', ':----'))).not.toBe(markdownAsRead(plain))
  })
})

describe('regenerating the region', () => {
  const summary = JSON.parse(readFileSync(RESULTS.summary, 'utf8')) as CompatSummary
  const other: CompatSummary = { ...summary, generatedAt: '2000-01-01T00:00:00.000Z', servers: 1 }

  it('rewrites only what lies between the markers, and twice is the same as once', () => {
    const text = `before\n${TOTALS_START}\nstale numbers\n${TOTALS_END}\nafter\n`
    const once = withTotals(text, other)
    expect(once.startsWith(`before\n${TOTALS_START}\n1 servers,`)).toBe(true)
    expect(once.endsWith(`${TOTALS_END}\nafter\n`)).toBe(true)
    expect(once).not.toContain('stale numbers')
    expect(withTotals(once, other)).toBe(once)
  })

  it('says where the region goes when the README has none', () => {
    expect(() => withTotals('no markers here', other)).toThrow(/no totals region \(fix: put the lines/)
  })
})
