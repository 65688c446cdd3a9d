import { describe, expect, it } from 'vitest'
import { count } from '../src/plural.ts'
import { renderReport, reportJson, runPasses, summaryLine } from '../src/report.ts'
import { type Row, type RowKind, rowPasses, type Verdict, verdictOf } from '../src/row.ts'
import type { RegressRun } from '../src/run-groups.ts'

function row(kind: RowKind, stock: boolean, hardened: boolean, checks: boolean[] = [], id = 'r'): Row {
  return {
    id,
    group: 'g',
    kind,
    proves: 'p',
    source: 's',
    stock: { outcome: stock ? 'works' : 'fails', works: stock, detail: 'stock detail' },
    hardened: { outcome: hardened ? 'works' : 'fails', works: hardened, detail: 'hardened detail' },
    checks: checks.map((ok, i) => ({ what: `check ${i}`, ok })),
  }
}

const run = (rows: Row[], extra: Partial<RegressRun> = {}): RegressRun => ({
  notes: [],
  logPath: '/tmp/x.log',
  rows,
  failures: [],
  ...extra,
})

describe('verdictOf: every combination of kind, legs and checks', () => {
  const passing: Record<RowKind, [boolean, boolean, Verdict, Verdict]> = {
    fix: [false, true, 'fixed', 'not-fixed'],
    guard: [true, true, 'holds', 'broken'],
    detect: [false, true, 'detected', 'missed'],
  }
  for (const kind of ['fix', 'guard', 'detect'] as const) {
    const [stockWanted, hardenedWanted, pass, fail] = passing[kind]
    for (const stock of [false, true])
      for (const hardened of [false, true])
        for (const checks of [[], [true], [true, false]]) {
          const expected =
            stock === stockWanted && hardened === hardenedWanted && checks.every(Boolean) ? pass : fail
          it(`${kind}: stock ${stock}, hardened ${hardened}, checks [${checks}] → ${expected}`, () => {
            const r = row(kind, stock, hardened, checks)
            expect(verdictOf(r)).toBe(expected)
            expect(rowPasses(r)).toBe(expected === pass)
          })
        }
  }
})

describe('count', () => {
  it('is singular for exactly one, plural otherwise, with thousands separators', () => {
    expect(count(1, 'tool')).toBe('1 tool')
    expect(count(0, 'tool')).toBe('0 tools')
    expect(count(2, 'row')).toBe('2 rows')
    expect(count(1000, 'call')).toBe('1,000 calls')
    expect(count(2, 'child', 'children')).toBe('2 children')
  })
})

describe('renderReport', () => {
  it('opens with the legend, names the log file, and prints the notes', () => {
    const text = renderReport(
      run([row('guard', true, true)], { notes: ['app install: 31 s, from cache: no'] }),
    )
    expect(text.split('\n').slice(0, 4).join('\n')).toContain('Legend')
    expect(text).toContain('child-process stderr and diagnostics: /tmp/x.log')
    expect(text).toContain('  app install: 31 s, from cache: no')
  })

  it('never cuts a detail, and indents its continuation lines', () => {
    const hint = `fix: ${'y'.repeat(5000)}\nsecond line of the hint`
    const r = { ...row('fix', false, true), hardened: { outcome: 'works', works: true, detail: hint } }
    const text = renderReport(run([r]))
    expect(text).toContain(`fix: ${'y'.repeat(5000)}`)
    expect(text).toMatch(/\n {14}second line of the hint/)
  })

  it('groups rows by group, with singular and plural counts', () => {
    const rows = [
      { ...row('fix', false, true, [], 'a'), group: 'one' },
      { ...row('guard', true, true, [], 'b'), group: 'two' },
      { ...row('guard', true, false, [], 'c'), group: 'two' },
    ]
    const text = renderReport(run(rows))
    expect(text).toContain('== one (1 row) ==')
    expect(text).toContain('== two (2 rows) ==')
    expect(text).toMatch(/ c +guard +works +fails +BROKEN/)
    expect(summaryLine(run(rows))).toBe('3 rows (1 fixed, 1 holds, 1 broken); 1 failure: exit code 1')
  })

  it('reports a group that did not finish, and such a run does not pass', () => {
    const failed = run([row('guard', true, true)], { failures: [{ group: 'app', error: 'Error: boom' }] })
    expect(renderReport(failed)).toContain('== groups that did not finish ==\n  app: Error: boom')
    expect(runPasses(failed)).toBe(false)
    expect(runPasses(run([]))).toBe(false)
  })

  it('--json: each row with its computed verdict', () => {
    const json = JSON.parse(reportJson(run([row('detect', false, true)]))) as {
      rows: { verdict: string; passes: boolean }[]
      passes: boolean
    }
    expect(json.rows[0]).toMatchObject({ verdict: 'detected', passes: true })
    expect(json.passes).toBe(true)
  })
})
