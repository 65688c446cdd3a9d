import type { CaseRow } from './run-case.ts'

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length)
}

/** One row per case: id, source, stock outcome, hardened outcome, fixed; details underneath. */
export function renderTable(rows: readonly CaseRow[]): string {
  const header = ['id', 'source', 'stock', 'hardened', 'fixed']
  const cells = rows.map((row) => [
    row.id,
    row.source,
    row.stock.outcome,
    row.hardened.outcome,
    row.fixed ? 'yes' : 'NO',
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => cell[column]!.length)),
  )
  const line = (values: readonly string[]) =>
    values
      .map((value, column) => pad(value, widths[column]!))
      .join('  ')
      .trimEnd()
  const details = rows.flatMap((row) => [
    `${row.id}`,
    `  stock:    ${row.stock.detail}`,
    `  hardened: ${row.hardened.detail}`,
  ])
  const fixed = rows.filter((row) => row.fixed).length
  return [
    line(header),
    ...cells.map(line),
    '',
    ...details,
    '',
    `${fixed} of ${rows.length} cases fixed`,
  ].join('\n')
}
