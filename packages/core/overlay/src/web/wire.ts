/**
 * What the host half of the *Tool contracts* panel sends the browser half: names, verdicts and reasons, nothing
 * else. No schema, no configuration value, no ajv message text (it can quote the schema): a verdict is described by
 * the overlay's own findings, each a JSON pointer with a reason and a fix.
 */

/** The route on DSH's own web server (rc.8 `@deepseek-ai/dsh-host-webserver`, `register({ kind: 'exact' })`). */
export const CONTRACTS_PATH = '/dsh-harden/tool-contracts'

/** The verdict kinds of `ToolVerdict` (`../verdicts.ts`), in the order the panel lists them. */
export const VERDICT_KINDS = ['withheld', 'repaired', 'fallback-validator', 'accepted'] as const
export type VerdictKind = (typeof VERDICT_KINDS)[number]

/** One thing the overlay found in a schema: where (JSON pointer into the declared parameters), what, how to fix. */
export interface ContractFinding {
  readonly pointer: string
  readonly message: string
  readonly hint: string
}

export interface ContractRow {
  readonly tool: string
  /** The plugin or MCP server that registered the tool; null when DSH did not say. */
  readonly source: string | null
  readonly verdict: VerdictKind
  /** Registered before the overlay started, and judged when it did. */
  readonly early: boolean
  /** `withheld`: why it was refused; `repaired`: what was changed. Empty otherwise. */
  readonly findings: readonly ContractFinding[]
  /** Findings left out to keep the response bounded. */
  readonly moreFindings: number
  /** `fallback-validator`: the construct ajv could not compile, and what checks the arguments instead. */
  readonly validator: { readonly construct: string; readonly fallback: string } | null
}

export interface ContractsView {
  /** Changes whenever a verdict is recorded (the route's ETag). */
  readonly revision: string
  /** Every verdict the ledger holds, counted by kind, including rows the budget left out. */
  readonly counts: Readonly<Record<VerdictKind, number>>
  /** Withheld first, then repaired, fallback-validator, accepted; each by source, then tool. */
  readonly rows: readonly ContractRow[]
  /** Rows left out: by the response budget, or because the ledger's capacity dropped old verdicts. */
  readonly omitted: number
}
