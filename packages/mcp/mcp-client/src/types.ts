import type { McpPolicy, ProfileId, Projection, SchemaViolation, SizeLimits } from '@dsh-harden/tools'

/** A tool as an MCP server lists it (`tools/list` result entry), before any check. */
export interface ListedTool {
  readonly name: string
  readonly description?: string | undefined
  readonly inputSchema?: unknown
  readonly outputSchema?: unknown
  readonly [key: string]: unknown
}

/** What intake did to one tool's schemas. */
export interface ToolRepair {
  readonly server: string
  readonly tool: string
  /** `inputSchema` or `outputSchema`. */
  readonly schema: 'inputSchema' | 'outputSchema'
  /** The violations that were repaired, with pointers into the schema as listed. */
  readonly repaired: readonly SchemaViolation[]
  /** Position of the tool in the listed page (added). */
  readonly entry: number
}

/** A tool left out (input) or degraded (output), and exactly why. */
export interface ToolDiagnostic {
  readonly server: string
  readonly tool: string
  readonly schema: 'inputSchema' | 'outputSchema'
  readonly violations: readonly SchemaViolation[]
  /** `isolated`: the tool is not registered. `output-unchecked`: registered, its output is not validated. */
  readonly effect: 'isolated' | 'output-unchecked'
  /**
   * Position of the tool in the listed page (added). A problem with the entry itself rather than a schema (not an
   * object, no string `name`, a name listed twice, an SDK-rejected field such as `annotations`) is reported with
   * `schema: 'inputSchema'`, rule `unreadable` or `keyword-type`, and a pointer into the tool entry (`/name`).
   */
  readonly entry: number
}

/** The wire schemas of one accepted tool for `IntakeOptions.profile` (added). */
export interface ToolProjections {
  readonly tool: string
  readonly input: Projection
  /** Absent when the tool lists no output schema, or its output schema was dropped (`output-unchecked`). */
  readonly output?: Projection | undefined
}

export interface IntakeResult {
  /** Every tool with one clear meaning, repaired where needed; compliant tools are the very same objects. */
  readonly tools: readonly ListedTool[]
  readonly repairs: readonly ToolRepair[]
  readonly diagnostics: readonly ToolDiagnostic[]
  /** Added: with `IntakeOptions.profile`, the projection of both schemas of each accepted tool, in list order. */
  readonly projections?: readonly ToolProjections[] | undefined
}

/**
 * The MCP boundary's policy in `@dsh-harden/tools` (`McpPolicy`). `contract` (default): the DSH root contract applies,
 * so a tool whose `inputSchema` the model API would reject is isolated even when the MCP SDK accepts it, and duplicate
 * names are isolated (DSH rejects the whole list over one). `spec`: only what the MCP `Tool` shape rejects is
 * repaired or isolated; everything the SDK accepts passes untouched. The repair proxy uses `spec`.
 */
export type IntakePolicy = McpPolicy

export interface IntakeOptions {
  /** The server's name, for diagnostics. */
  readonly server: string
  /** Added: see {@link IntakePolicy}. Default `contract`. */
  readonly policy?: IntakePolicy | undefined
  /** Added: project the input and output schema of each accepted tool for this model route. */
  readonly profile?: ProfileId | undefined
  /** Added: bounds for reading one schema (default: `DEFAULT_LIMITS` of `@dsh-harden/tools`). */
  readonly limits?: SizeLimits | undefined
}
