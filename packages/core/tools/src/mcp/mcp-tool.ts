import { checkToolParameters } from '../check/root-contract.ts'
import type { SchemaViolation } from '../check/violation.ts'
import type { SizeLimits } from '../json/limits.ts'
import { isPlainRecord } from '../json/plain-data.ts'
import type { ProfileId } from '../projection/types.ts'
import { judgeMcpOutputSchema, judgeMcpSchema, type McpPolicy } from './mcp-schema.ts'
import { projectForRoute, type RouteProjection } from './route-projection.ts'

/** Which schema of a listed tool a repair or problem is about. */
export type ToolSchemaKey = 'inputSchema' | 'outputSchema'

export interface McpToolOptions {
  /** Default `contract`. */
  readonly policy?: McpPolicy | undefined
  /** Also project each served tool for this model route; a tool the route cannot take is isolated. */
  readonly profile?: ProfileId | undefined
  readonly limits?: SizeLimits | undefined
}

export interface McpSchemaRepair {
  readonly schema: ToolSchemaKey
  /** The violations that were repaired, with pointers into the schema as listed. */
  readonly repaired: readonly SchemaViolation[]
}

export interface McpToolProblem {
  /** `tool`: the entry itself (not an object, no string `name`, a name listed twice); pointers are into the entry. */
  readonly schema: ToolSchemaKey | 'tool'
  readonly violations: readonly SchemaViolation[]
  /** `isolated`: the tool is not served. `output-unchecked`: served without its output schema. */
  readonly effect: 'isolated' | 'output-unchecked'
}

/**
 * The one verdict on one listed tool that every MCP entry point serves: the DSH intake, the repair proxy, the
 * gateway, `sanitize`, `types` and `mcp check`.
 */
export interface McpToolVerdict {
  /** Position in the listed page. */
  readonly entry: number
  /** The tool's name, or `#<entry>` when it has none. */
  readonly name: string
  /** `accepted`: served as the very same object. `repaired`: served as a new object. `isolated`: not served. */
  readonly status: 'accepted' | 'repaired' | 'isolated'
  /** The tool to serve (every field as listed, only the schemas changed); absent when isolated. */
  readonly tool?: Readonly<Record<string, unknown>> | undefined
  readonly repairs: readonly McpSchemaRepair[]
  readonly problems: readonly McpToolProblem[]
  /** With `McpToolOptions.profile`: the wire schemas of the served tool. */
  readonly projection?: RouteProjection | undefined
}

/** Judges every listed tool on its own, so one tool's schema never takes down the page. Linear in the list. */
export function judgeMcpToolList(tools: readonly unknown[], options: McpToolOptions = {}): McpToolVerdict[] {
  const policy = options.policy ?? 'contract'
  // DSH refuses a whole list over one duplicate name; the MCP spec leaves it open, so only `contract` isolates them.
  const duplicates = policy === 'contract' ? duplicateNames(tools) : new Set<string>()
  return tools.map((listed, entry) => judgeMcpTool(listed, entry, { ...options, policy }, duplicates))
}

function isolated(
  entry: number,
  name: string,
  schema: McpToolProblem['schema'],
  violations: readonly SchemaViolation[],
): McpToolVerdict {
  return {
    entry,
    name,
    status: 'isolated',
    repairs: [],
    problems: [{ schema, violations, effect: 'isolated' }],
  }
}

function entryProblem(entry: number, name: string, pointer: string, message: string, hint: string) {
  return isolated(entry, name, 'tool', [{ pointer, rule: 'unreadable', message, hint }])
}

function judgeMcpTool(
  listed: unknown,
  entry: number,
  options: McpToolOptions & { readonly policy: McpPolicy },
  duplicates: ReadonlySet<string>,
): McpToolVerdict {
  const label = `#${entry}`
  if (!isPlainRecord(listed))
    return entryProblem(entry, label, '', 'the listed tool is not an object', 'list each tool as an object')
  const name = listed.name
  if (typeof name !== 'string')
    return entryProblem(
      entry,
      label,
      '/name',
      'the listed tool has no string `name`',
      'give every tool a name',
    )
  if (duplicates.has(name)) {
    return entryProblem(
      entry,
      name,
      '/name',
      `the server lists "${name}" more than once; which definition is meant is ambiguous`,
      'list each tool name once',
    )
  }
  const schemaOptions = { policy: options.policy, limits: options.limits }
  const input = judgeMcpSchema(listed.inputSchema, 'inputSchema', schemaOptions)
  if (input.kind === 'rejected') return isolated(entry, name, 'inputSchema', input.violations)
  const output = judgeMcpOutputSchema(listed.outputSchema, schemaOptions)
  const repairs: McpSchemaRepair[] = []
  const problems: McpToolProblem[] = []
  let tool: Record<string, unknown> = listed
  const edit = (): Record<string, unknown> => {
    if (tool === listed) tool = { ...listed }
    return tool
  }
  if (input.kind === 'repaired') {
    edit().inputSchema = input.schema
    repairs.push({ schema: 'inputSchema', repaired: input.repaired })
  }
  if (output.kind === 'repaired') {
    edit().outputSchema = output.schema
    repairs.push({ schema: 'outputSchema', repaired: output.repaired })
  } else if (output.kind === 'dropped') {
    delete edit().outputSchema
    problems.push({ schema: 'outputSchema', violations: output.violations, effect: 'output-unchecked' })
  }
  const status = tool === listed ? 'accepted' : 'repaired'
  if (options.profile === undefined) return { entry, name, status, tool, repairs, problems }
  // Under `spec` a served schema may break the root contract projection assumes; such a tool gets no projection.
  if (
    options.policy === 'spec' &&
    checkToolParameters(tool.inputSchema, options.limits).violations.length > 0
  )
    return { entry, name, status, tool, repairs, problems }
  const routed = projectForRoute(tool, options.profile)
  if (routed.kind === 'refused') return isolated(entry, name, 'inputSchema', routed.violations)
  if (routed.outputDropped !== undefined) {
    delete edit().outputSchema
    problems.push({ schema: 'outputSchema', violations: routed.outputDropped, effect: 'output-unchecked' })
  }
  return {
    entry,
    name,
    status: tool === listed ? 'accepted' : 'repaired',
    tool,
    repairs,
    problems,
    projection: routed.projection,
  }
}

function duplicateNames(tools: readonly unknown[]): Set<string> {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const tool of tools) {
    const name = isPlainRecord(tool) ? tool.name : undefined
    if (typeof name !== 'string') continue
    if (seen.has(name)) twice.add(name)
    seen.add(name)
  }
  return twice
}
