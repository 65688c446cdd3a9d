/**
 * What the host half of the *Tool contracts* panel sends the browser half: names, verdicts and what went wrong where,
 * nothing else. No schema, no configuration value, no message text: a finding is a JSON pointer into the declared
 * parameters and the rule it broke (`SchemaViolation.rule` of `@dsh-harden/tools`), and the browser half words both
 * in the user's language. A message of `@dsh-harden/tools` can quote the schema (a name, an `enum` value, a pattern),
 * so it never leaves the host.
 */
import type { SchemaRule } from '@dsh-harden/tools'

/**
 * The panel's channel on DSH's own connection (rc.8 `@deepseek-ai/dsh-client-connection`, `ctx.connection.rpc.handle`):
 * every request passes DSH's `/api` trust fence with the deployment's `trustedHosts`, before the overlay sees it.
 */
export const CONTRACTS_CHANNEL = '/dsh-harden'
/** The one endpoint of the channel. */
export const CONTRACTS_ENDPOINT = 'tool-contracts'
/** Where the browser half posts its request (channel, then endpoint, as DSH's own RPC client builds the URL). */
export const CONTRACTS_PATH = `${CONTRACTS_CHANNEL}/${CONTRACTS_ENDPOINT}`

/** The verdict kinds of `ToolVerdict` (`../verdicts.ts`), in the order the panel lists them. */
export const VERDICT_KINDS = ['withheld', 'repaired', 'fallback-validator', 'accepted'] as const
export type VerdictKind = (typeof VERDICT_KINDS)[number]

export type { SchemaRule }

/** One thing the overlay found in a schema: where (JSON pointer into the declared parameters) and which rule. */
export interface ContractFinding {
  readonly pointer: string
  readonly rule: SchemaRule
}

/** What ajv could not compile (`ValidatorProblem.construct` of `@dsh-harden/tools`, by kind). */
export const VALIDATOR_CONSTRUCTS = [
  'call-stack',
  'duplicate-id',
  'unresolved-ref',
  'pattern',
  'other',
] as const
export type ValidatorConstruct = (typeof VALIDATOR_CONSTRUCTS)[number]

/** What checks the arguments instead (`ValidatorProblem.fallback`, by kind). */
export const VALIDATOR_FALLBACKS = ['dsh', 'ajv-without-pattern', 'custom', 'none'] as const
export type ValidatorFallback = (typeof VALIDATOR_FALLBACKS)[number]

export interface ContractRow {
  readonly tool: string
  /** The plugin that registered the tool, as cordis names it (its module's `name` export); null when not known. */
  readonly source: string | null
  /** The npm package the plugin came from, as installed in the DSH profile; null when DSH's loader does not say. */
  readonly package: string | null
  readonly verdict: VerdictKind
  /** Registered before the overlay started, and judged when it did. */
  readonly early: boolean
  /** `withheld`: why it was refused; `repaired`: what was changed. Empty otherwise. */
  readonly findings: readonly ContractFinding[]
  /** Findings left out to keep the response bounded. */
  readonly moreFindings: number
  /** `withheld` only: every finding has exactly one meaning, so the overlay's `mode: repair` would send the tool. */
  readonly repairable: boolean
  /** `fallback-validator`: the construct ajv could not compile (and where, for a pattern), and what checks instead. */
  readonly validator: {
    readonly construct: ValidatorConstruct
    readonly pointer: string | null
    readonly fallback: ValidatorFallback
  } | null
}

export interface ContractsView {
  /** Changes whenever a verdict is recorded. */
  readonly revision: string
  /** Every verdict the ledger holds, counted by kind, including rows the budget left out. */
  readonly counts: Readonly<Record<VerdictKind, number>>
  /** Withheld first, then repaired, fallback-validator, accepted; each by source, then tool. */
  readonly rows: readonly ContractRow[]
  /** Rows left out: by the response budget, or because the ledger's capacity dropped old verdicts. */
  readonly omitted: number
  /**
   * The command a plugin author runs from the plugin's folder to get the same verdicts, when one runs today (this
   * host knows a dsh-harden checkout, or the CLI is published); null otherwise, and the panel says how to get it.
   */
  readonly lintCommand: string | null
}

/** The request's payload: the revision the browser already shows, so an unchanged view costs a few bytes. */
export interface ContractsRequest {
  readonly revision: string | null
}

/** The answer when the view is still `revision`. */
export interface ContractsUnchanged {
  readonly unchanged: true
  readonly revision: string
}

export type ContractsReply = ContractsView | ContractsUnchanged
