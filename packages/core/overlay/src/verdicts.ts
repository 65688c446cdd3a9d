import type { JsonSchemaError, RepairReport, ToolIdentity, ValidatorProblem } from '@dsh-harden/tools'
import { stateOf } from './instance-state.ts'

/**
 * What the overlay decided about one tool, in the structured form every observer reads: the stderr notices, the
 * Web UI's *Tool contracts* panel, `dsh-harden doctor`. `early` marks a tool judged when the overlay started, because
 * it was registered before.
 */
export type ToolVerdict =
  | { readonly kind: 'accepted'; readonly identity: ToolIdentity; readonly early: boolean }
  | {
      readonly kind: 'repaired'
      readonly identity: ToolIdentity
      readonly early: boolean
      readonly report: RepairReport
    }
  | {
      readonly kind: 'withheld'
      readonly identity: ToolIdentity
      readonly early: boolean
      readonly error: JsonSchemaError
    }
  | {
      /** Registered, but ajv cannot compile its schema: DSH's own validator (or a refusal) checks its arguments. */
      readonly kind: 'fallback-validator'
      readonly identity: ToolIdentity
      readonly early: boolean
      readonly problem: ValidatorProblem
    }

export type VerdictListener = (verdict: ToolVerdict) => void

/** A hostile plugin can register any number of tools; the ledger keeps the newest this many and counts the rest. */
export const LEDGER_CAPACITY = 10_000

/**
 * The verdicts of one DSH tool registry, newest per (plugin, tool), replayed to a listener that subscribes late: the
 * Web UI row may start after the overlay has judged every tool.
 */
export class VerdictLedger {
  private readonly latest = new Map<string, ToolVerdict>()
  private readonly listeners = new Set<VerdictListener>()
  private forgotten = 0

  /** One ledger kept for the process keeps this class's shape alive when every tools instance is gone (see `InstanceState`). */
  static readonly keptShape = new VerdictLedger()

  record(verdict: ToolVerdict): void {
    const key = `${verdict.identity.source ?? ''}\u0000${verdict.identity.tool}`
    // Re-inserted, so iteration order is "most recently judged last" and eviction drops the oldest.
    this.latest.delete(key)
    this.latest.set(key, verdict)
    if (this.latest.size > LEDGER_CAPACITY) {
      const oldest = this.latest.keys().next().value as string
      this.latest.delete(oldest)
      this.forgotten++
    }
    for (const listener of this.listeners) listener(verdict)
  }

  /** Every verdict kept, oldest first, and how many older ones the capacity dropped. */
  snapshot(): { readonly verdicts: readonly ToolVerdict[]; readonly forgotten: number } {
    return { verdicts: [...this.latest.values()], forgotten: this.forgotten }
  }

  /** Calls `listener` for every verdict recorded from now on; returns the unsubscriber. */
  subscribe(listener: VerdictListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** The ledger of a tools service instance (the raw instance behind cordis' proxy), created on first use. */
export function verdictLedgerOf(tools: object): VerdictLedger {
  const state = stateOf(tools)
  state.ledger ??= new VerdictLedger()
  return state.ledger
}
