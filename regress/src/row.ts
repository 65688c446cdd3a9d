/**
 * One row of the regression report. A row's verdict is computed only from what both legs were observed to do; no
 * row may set a leg's outcome from its own id, a constant, or our own code judging our own output.
 *
 * - `fix`: stock was observed failing and hardened was observed working.
 * - `guard`: a behaviour that must stay the same; both legs were observed working.
 * - `detect`: a checker of ours finds a defect; `stock` is what real clients were observed to do with it (failing),
 *   `hardened` is our checker observed naming it.
 */
export type RowKind = 'fix' | 'guard' | 'detect'

/** What one leg was observed to do. */
export interface Observed {
  /** A short outcome word, e.g. `every-turn-fails`, `works`, `refused-at-load`, `call-fails`. */
  readonly outcome: string
  /** Whether the leg did what a user wants (for `detect`'s hardened leg: the checker named the defect). */
  readonly works: boolean
  /** The evidence, verbatim: error text, counts, exit codes. Never truncated where it carries a fix hint. */
  readonly detail: string
}

/** An extra observed condition on a row (e.g. "the refusal names tool and plugin"). */
export interface Check {
  readonly what: string
  readonly ok: boolean
}

export interface Row {
  readonly id: string
  /** The report section, e.g. `registration`, `app`, `mcp`, `escalation`. */
  readonly group: string
  readonly kind: RowKind
  /** One sentence: what this row proves. */
  readonly proves: string
  /** Where the failure was reported (issue, seed, research note). */
  readonly source: string
  readonly stock: Observed
  readonly hardened: Observed
  readonly checks?: readonly Check[] | undefined
}

export type Verdict = 'fixed' | 'holds' | 'detected' | 'not-fixed' | 'broken' | 'missed'

/** The verdict of a row, from its observed legs and checks only. */
export function verdictOf(row: Row): Verdict {
  const checksOk = (row.checks ?? []).every((check) => check.ok)
  switch (row.kind) {
    case 'fix':
      return !row.stock.works && row.hardened.works && checksOk ? 'fixed' : 'not-fixed'
    case 'guard':
      return row.stock.works && row.hardened.works && checksOk ? 'holds' : 'broken'
    case 'detect':
      return !row.stock.works && row.hardened.works && checksOk ? 'detected' : 'missed'
  }
}

export function rowPasses(row: Row): boolean {
  const verdict = verdictOf(row)
  return verdict === 'fixed' || verdict === 'holds' || verdict === 'detected'
}
