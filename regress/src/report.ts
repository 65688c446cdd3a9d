import { count } from './plural.ts'
import {
  type Cost,
  costWithin,
  figureText,
  type Observed,
  type Row,
  rowPasses,
  thresholdText,
  type Verdict,
  verdictOf,
} from './row.ts'
import type { RegressRun } from './run-groups.ts'

export const LEGEND: readonly string[] = [
  'Legend',
  '  kind    fix     stock was observed failing and hardened was observed working',
  '          guard   a behaviour that must stay the same: both legs were observed working',
  '          detect  a checker of ours names a defect: stock is what real clients were observed to do with it',
  '                  (failing), hardened is the checker observed naming it',
  '          cost    no defect on either leg: both legs were observed working, a figure (e.g. processes started,',
  '                  bytes sent) was measured on each, and hardened’s is compared with the row’s stated threshold',
  '  verdict fixed / not-fixed (fix), holds / broken (guard), detected / missed (detect),',
  '          within / over, or broken when a leg does not work (cost); computed from the two observed legs, the',
  '          row’s checks and its figures only. Only fixed, holds, detected, within pass.',
  '  stock = @deepseek-ai/* 0.1.0-rc.8 as published; hardened = the same with the dsh-harden packages.',
]

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}

/** Continuation lines of a multi-line text are indented under the first; nothing is cut. */
function block(label: string, text: string): string[] {
  const [first = '', ...rest] = text.split('\n')
  const indent = ' '.repeat(label.length)
  return [`${label}${first}`, ...rest.map((line) => `${indent}${line}`)]
}

function leg(label: string, observed: Observed): string[] {
  return block(label, `${observed.outcome}${observed.works ? '' : ' (fails)'}: ${observed.detail}`)
}

function table(rows: readonly Row[]): string[] {
  const header = ['id', 'kind', 'stock', 'hardened', 'verdict']
  const cells = rows.map((row) => [
    row.id,
    row.kind,
    row.stock.outcome,
    row.hardened.outcome,
    rowPasses(row) ? verdictOf(row) : verdictOf(row).toUpperCase(),
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => cell[column]!.length)),
  )
  const line = (values: readonly string[]) =>
    `  ${values
      .map((value, column) => pad(value, widths[column]!))
      .join('  ')
      .trimEnd()}`
  return [line(header), ...cells.map(line)]
}

function costLine(cost: Cost): string[] {
  return block(
    `    ${costWithin(cost) ? 'cost' : 'OVER'}      `,
    `${cost.what}: stock ${figureText(cost, cost.stock)}, hardened ${figureText(cost, cost.hardened)}; threshold ${thresholdText(cost)}`,
  )
}

function details(row: Row): string[] {
  return [
    `  ${row.id}  [${row.kind}] ${verdictOf(row)}`,
    ...block('    proves:   ', row.proves),
    ...block('    source:   ', row.source),
    ...leg('    stock:    ', row.stock),
    ...leg('    hardened: ', row.hardened),
    ...(row.costs ?? []).flatMap(costLine),
    ...(row.checks ?? []).flatMap((check) => block(`    ${check.ok ? 'ok  ' : 'FAIL'}      `, check.what)),
  ]
}

const VERDICT_ORDER: readonly Verdict[] = [
  'fixed',
  'holds',
  'detected',
  'within',
  'not-fixed',
  'broken',
  'missed',
  'over',
]

export function summaryLine(run: RegressRun): string {
  const byVerdict = VERDICT_ORDER.flatMap((verdict) => {
    const n = run.rows.filter((row) => verdictOf(row) === verdict).length
    return n === 0 ? [] : [`${n} ${verdict}`]
  })
  const failing = run.rows.filter((row) => !rowPasses(row)).length + run.failures.length
  const tail = failing === 0 ? 'every row passes' : `${count(failing, 'failure')}: exit code 1`
  return `${count(run.rows.length, 'row')}${byVerdict.length > 0 ? ` (${byVerdict.join(', ')})` : ''}; ${tail}`
}

/** The text report: legend, notes, one section per group (table, then each row in full), summary. */
export function renderReport(run: RegressRun): string {
  const groups = [...new Set(run.rows.map((row) => row.group))]
  const sections = groups.flatMap((group) => {
    const rows = run.rows.filter((row) => row.group === group)
    return ['', `== ${group} (${count(rows.length, 'row')}) ==`, ...table(rows), '', ...rows.flatMap(details)]
  })
  const failures =
    run.failures.length === 0
      ? []
      : [
          '',
          '== groups that did not finish ==',
          ...run.failures.flatMap((f) => block(`  ${f.group}: `, f.error)),
        ]
  return [
    'dsh-harden regress: stock DeepSeek Harness against the dsh-harden packages',
    '',
    ...LEGEND,
    '',
    'Notes',
    `  child-process stderr and diagnostics: ${run.logPath}`,
    ...run.notes.flatMap((note) => block('  ', note)),
    ...sections,
    ...failures,
    '',
    summaryLine(run),
  ].join('\n')
}

/** `--json`: every row with its computed verdict, plus the notes, the log path and any group failure. */
export function reportJson(run: RegressRun): string {
  return JSON.stringify(
    {
      logPath: run.logPath,
      notes: run.notes,
      rows: run.rows.map((row) => ({ ...row, verdict: verdictOf(row), passes: rowPasses(row) })),
      failures: run.failures,
      passes: runPasses(run),
    },
    null,
    2,
  )
}

export function runPasses(run: RegressRun): boolean {
  return run.failures.length === 0 && run.rows.length > 0 && run.rows.every(rowPasses)
}
