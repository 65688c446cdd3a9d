import type { JsonSchemaError, RepairReport, ToolIdentity, ValidatorProblem } from '@dsh-harden/tools'
import { ledgerOf, originOf } from './instance-state.ts'
import { dshRegistryOf } from './registry.ts'
import { toolNameOf } from './tool-definition.ts'

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

/** The key of a tool in the ledger: who registered it and its name. */
function keyOf(source: string | undefined, tool: string): string {
  return `${source ?? ''}\u0000${tool}`
}

/** The keys of every tool registered now, in any scope; read when the ledger drops the verdicts of the others. */
export type RegisteredKeys = () => ReadonlySet<string>

/**
 * The verdicts of one DSH tool registry, newest per (plugin, tool), replayed to a listener that subscribes late: the
 * Web UI row may start after the overlay has judged every tool. A tool that is no longer registered (unregistered,
 * its plugin or its agent scope disposed) drops out whenever the ledger is read, and before the capacity would evict
 * the verdict of a registered tool; registering a tool never walks DSH's tables.
 */
export class VerdictLedger {
  private readonly latest = new Map<string, ToolVerdict>()
  private readonly listeners = new Set<VerdictListener>()
  private readonly registered: RegisteredKeys | undefined
  /** Judges what the running overlay has not judged yet, before a read (see `settleWith`). */
  private settle: (() => void) | undefined = undefined
  private forgotten = 0
  private changes = 0

  /** `registered`: the registry's tools now; without it (a registry the overlay cannot read) nothing is dropped. */
  constructor(registered?: RegisteredKeys) {
    this.registered = registered
  }

  /** One ledger kept for the process keeps this class's shape alive when every tools instance is gone (see `InstanceState`). */
  static readonly keptShape = new VerdictLedger()

  /** Changes with every verdict recorded and every drop: what a reader's cached view is current for. */
  get revision(): number {
    this.settle?.()
    this.dropUnregistered()
    return this.changes
  }

  record(verdict: ToolVerdict): void {
    // Before the new verdict goes in: its tool enters DSH's table only after it is judged.
    if (this.latest.size >= LEDGER_CAPACITY) this.dropUnregistered()
    const key = keyOf(verdict.identity.source, verdict.identity.tool)
    // Re-inserted, so iteration order is "most recently judged last" and eviction drops the oldest.
    this.latest.delete(key)
    this.latest.set(key, verdict)
    this.changes++
    if (this.latest.size > LEDGER_CAPACITY) {
      const oldest = this.latest.keys().next().value as string
      this.latest.delete(oldest)
      this.forgotten++
    }
    for (const listener of this.listeners) listener(verdict)
  }

  /** Every verdict of a registered tool, oldest first, and how many older ones the capacity dropped. */
  snapshot(): { readonly verdicts: readonly ToolVerdict[]; readonly forgotten: number } {
    this.settle?.()
    this.dropUnregistered()
    return { verdicts: [...this.latest.values()], forgotten: this.forgotten }
  }

  /** Calls `listener` for every verdict recorded from now on; returns the unsubscriber. */
  subscribe(listener: VerdictListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Has `settle` run before every read of the verdicts, while the overlay that judges tools lazily runs; returns the
   * remover. A reader then sees a verdict for every registered tool, judged or not when it asked.
   */
  settleWith(settle: () => void): () => void {
    this.settle = settle
    return () => {
      if (this.settle === settle) this.settle = undefined
    }
  }

  private dropUnregistered(): void {
    if (this.registered === undefined) return
    const registered = this.registered()
    for (const key of this.latest.keys()) {
      if (registered.has(key)) continue
      this.latest.delete(key)
      this.changes++
    }
  }
}

/** What the ledger of `tools` reads to tell which tools are registered: DSH's tables and who registered each entry. */
function registeredKeysOf(tools: object): RegisteredKeys | undefined {
  const registry = dshRegistryOf(tools)
  if (registry === undefined) return undefined
  return () => {
    const keys = new Set<string>()
    for (const entry of registry.definitions())
      keys.add(keyOf(originOf(tools, entry).registration.source, toolNameOf(entry)))
    return keys
  }
}

/** The ledger of a tools service instance (the raw instance behind cordis' proxy), created on first use. */
export function verdictLedgerOf(tools: object): VerdictLedger {
  return ledgerOf(tools, () => new VerdictLedger(registeredKeysOf(tools)))
}
