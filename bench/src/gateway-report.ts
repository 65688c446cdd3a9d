import type { ComparisonResult } from './harness.ts'

/** A size compared side by side (context bytes), reported next to the timing tables. */
export interface SizeResult {
  readonly kind: 'size'
  readonly name: string
  readonly peer: { readonly label: string; readonly bytes: number }
  readonly subject: { readonly label: string; readonly bytes: number }
  /** subject ÷ peer bytes. */
  readonly ratio: number
  readonly notes: readonly string[]
}

/** What a gateway bench module returns: timing comparisons (the ordinary table) and sizes. */
export interface MeasuredOutput {
  readonly results: readonly ComparisonResult[]
  readonly sizes: readonly SizeResult[]
}

/** Tokens are ESTIMATED as UTF-8 bytes ÷ 4 (no tokenizer is a dependency here); good for ratios, ±25% absolute. */
export const tokens = (bytes: number): number => Math.round(bytes / 4)

const n = (value: number) => value.toLocaleString('en-US')

export function formatSizes(sizes: readonly SizeResult[]): string {
  if (sizes.length === 0) return ''
  const out = ['context size — ratio = subject ÷ peer bytes; tokens ≈ bytes ÷ 4 (estimate, no tokenizer)', '']
  const header = ['case', 'peer', 'bytes', '≈tokens', 'subject', 'bytes', '≈tokens', 'ratio']
  const lines = sizes.map((size) => [
    size.name,
    size.peer.label,
    n(size.peer.bytes),
    n(tokens(size.peer.bytes)),
    size.subject.label,
    n(size.subject.bytes),
    n(tokens(size.subject.bytes)),
    `${size.ratio.toFixed(3)}×`,
  ])
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...lines.map((line) => line[index]!.length)),
  )
  const row = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 1 || i === 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
  out.push(row(header), ...lines.map(row), '')
  for (const size of sizes) {
    if (size.notes.length === 0) continue
    out.push(`${size.name}:`, ...size.notes.map((note) => `  - ${note}`), '')
  }
  return `${out.join('\n')}\n`
}

export const ms = (ns: number): string => (ns / 1e6).toFixed(ns < 1e7 ? 2 : 0)
