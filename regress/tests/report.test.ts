import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { count } from '../src/plural.ts'
import { renderReport, reportJson, runPasses, summaryLine } from '../src/report.ts'
import {
  type Cost,
  costWithin,
  type Row,
  type RowKind,
  rowPasses,
  thresholdText,
  type Verdict,
  verdictOf,
} from '../src/row.ts'
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
  const passing: Record<Exclude<RowKind, 'cost'>, [boolean, boolean, Verdict, Verdict]> = {
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

describe('verdictOf: cost rows', () => {
  const cost = (hardened: number, extra: Partial<Cost> = {}): Cost => ({
    what: 'processes started',
    unit: 'process',
    units: 'processes',
    stock: 5,
    hardened,
    max: 1,
    ...extra,
  })
  const costRow = (stock: boolean, hardened: boolean, checks: boolean[], costs: Cost[]): Row => ({
    ...row('cost', stock, hardened, checks),
    costs,
  })
  for (const stock of [false, true])
    for (const hardened of [false, true])
      for (const checks of [[], [true], [true, false]])
        for (const figures of [[1], [2], [0, 1], [1, 3]]) {
          const within = figures.every((n) => n <= 1)
          const expected: Verdict =
            !stock || !hardened || !checks.every(Boolean) ? 'broken' : within ? 'within' : 'over'
          it(`cost: stock ${stock}, hardened ${hardened}, checks [${checks}], figures [${figures}] → ${expected}`, () => {
            const r = costRow(
              stock,
              hardened,
              checks,
              figures.map((n) => cost(n)),
            )
            expect(verdictOf(r)).toBe(expected)
            expect(rowPasses(r)).toBe(expected === 'within')
          })
        }

  it('a cost row with no figure claims nothing and does not pass', () => {
    expect(verdictOf(costRow(true, true, [], []))).toBe('over')
  })

  it('a relative threshold is a fraction of stock’s figure, and needs a stock figure above 0', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.double({ min: 0, max: 2, noNaN: true }), (s, h, max) => {
        const c = cost(h, { stock: s, max, relative: true })
        expect(costWithin(c)).toBe(s > 0 && h <= max * s)
      }),
    )
    expect(thresholdText(cost(0, { max: 0.25, relative: true }))).toBe('hardened ≤ 25% of stock')
    expect(thresholdText(cost(0, { max: 1 }))).toBe('hardened ≤ 1 process')
  })

  it('prints both figures and the threshold under the row, OVER when missed', () => {
    const text = renderReport(
      run([
        costRow(true, true, [], [cost(1), { what: 'bytes', unit: 'byte', stock: 5, hardened: 3, max: 1 }]),
      ]),
    )
    expect(text).toContain(
      '    cost      processes started: stock 5 processes, hardened 1 process; threshold hardened ≤ 1 process',
    )
    expect(text).toContain(
      '    OVER      bytes: stock 5 bytes, hardened 3 bytes; threshold hardened ≤ 1 byte',
    )
    expect(text).toMatch(/ r +cost +works +works +OVER/)
  })
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
