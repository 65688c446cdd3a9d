import type { ComparisonResult } from './harness.ts'

/** A table's time unit: milliseconds when every time in it is at least 10 ms (whole sessions, steps), else µs. */
function unitOf(group: readonly ComparisonResult[]): {
  readonly name: string
  readonly format: (ns: number) => string
} {
  const long = group.every((result) => Math.min(result.peer.nsPerOp, result.subject.nsPerOp) >= 1e7)
  return long
    ? { name: 'ms', format: (ns) => (ns / 1e6).toFixed(0) }
    : { name: 'µs', format: (ns) => (ns / 1000).toFixed(2) }
}
const times = (ratio: number): string => ratio.toFixed(2)

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
    .join('  ')
}

/** Results grouped by what was compared, one table per pair, with the notes of each case under it. */
export function formatTables(results: readonly ComparisonResult[]): string {
  const groups = new Map<string, ComparisonResult[]>()
  for (const result of results) {
    const key = `${result.subject.label} vs ${result.peer.label}`
    groups.set(key, [...(groups.get(key) ?? []), result])
  }
  const out: string[] = []
  for (const [title, group] of groups) {
    const { peer, subject } = group[0]!
    const unit = unitOf(group)
    out.push(
      `${title} — ratio = ${subject.label} ÷ ${peer.label} per round; above 1 the subject is slower`,
      '',
    )
    const header = [
      'case',
      `${peer.label} ${unit.name}/op`,
      `${subject.label} ${unit.name}/op`,
      'ratio',
      'p25–p75',
      `added ${unit.name}/op`,
      'rounds × ops',
    ]
    const lines = group.map((result) => [
      result.name,
      unit.format(result.peer.nsPerOp),
      unit.format(result.subject.nsPerOp),
      `${times(result.ratio.median)}×`,
      `${times(result.ratio.p25)}–${times(result.ratio.p75)}`,
      unit.format(result.addedNsPerOp.median),
      `${result.rounds} × ${result.opsPerSample}`,
    ])
    const widths = header.map((cell, index) =>
      Math.max(cell.length, ...lines.map((line) => line[index]!.length)),
    )
    out.push(row(header, widths), ...lines.map((line) => row(line, widths)), '')
    for (const result of group) {
      if (result.notes.length === 0) continue
      out.push(`${result.name}:`, ...result.notes.map((note) => `  - ${note}`), '')
    }
  }
  return `${out.join('\n')}\n`
}
