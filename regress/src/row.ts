import { count } from './plural.ts'

/**
 * One row of the regression report. A row's verdict is computed only from what both legs were observed to do; no
 * row may set a leg's outcome from its own id, a constant, or our own code judging our own output.
 *
 * - `fix`: stock was observed failing and hardened was observed working.
 * - `guard`: a behaviour that must stay the same; both legs were observed working.
 * - `detect`: a checker of ours finds a defect; `stock` is what real clients were observed to do with it (failing),
 *   `hardened` is our checker observed naming it.
 * - `cost`: not a defect of either leg. Both legs must work; each `Cost` figure is measured on both legs, and the
 *   verdict compares hardened's figure with the row's stated threshold (e.g. "server processes started before the
 *   first call: stock 5, hardened 1, threshold ≤ 1").
 */
export type RowKind = 'fix' | 'guard' | 'detect' | 'cost'

/** A figure measured on both legs of a `cost` row, with the threshold its verdict compares hardened's figure to. */
export interface Cost {
  /** What is counted, e.g. `server processes started before the first tool call`. */
  readonly what: string
  /** The unit of both figures, singular (`process`, `byte`), and its plural when not `unit` + `s`. */
  readonly unit: string
  readonly units?: string
  readonly stock: number
  readonly hardened: number
  /**
   * Hardened's figure may be at most `max`; with `relative`, at most `max` × stock's figure (stock's must then be
   * above 0, or there is nothing to compare with).
   */
  readonly max: number
  readonly relative?: boolean
}

/** Whether a cost meets its threshold. */
export function costWithin(cost: Cost): boolean {
  if (cost.relative === true) return cost.stock > 0 && cost.hardened <= cost.max * cost.stock
  return cost.hardened <= cost.max
}

/** One figure of a cost with its unit, e.g. `1 process`, `5 processes`. */
export function figureText(cost: Cost, value: number): string {
  return count(value, cost.unit, cost.units)
}

/** The threshold in words, e.g. `hardened ≤ 1 process` or `hardened ≤ 25% of stock`. */
export function thresholdText(cost: Cost): string {
  return cost.relative === true
    ? `hardened ≤ ${Number((cost.max * 100).toFixed(2))}% of stock`
    : `hardened ≤ ${figureText(cost, cost.max)}`
}

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
  /** A `cost` row's figures (at least one); other kinds carry none. */
  readonly costs?: readonly Cost[] | undefined
}

export type Verdict = 'fixed' | 'holds' | 'detected' | 'within' | 'not-fixed' | 'broken' | 'missed' | 'over'

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
    case 'cost': {
      if (!row.stock.works || !row.hardened.works || !checksOk) return 'broken'
      const costs = row.costs ?? []
      return costs.length > 0 && costs.every(costWithin) ? 'within' : 'over'
    }
  }
}

export function rowPasses(row: Row): boolean {
  const verdict = verdictOf(row)
  return verdict === 'fixed' || verdict === 'holds' || verdict === 'detected' || verdict === 'within'
}
