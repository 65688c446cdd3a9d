import { judgeMcpToolList, type McpToolVerdict, type SchemaViolation, toPointer } from '@dsh-harden/tools'
import { sdkOutputCompileProblem, sdkToolIssues } from './schema-intake.ts'
import type {
  IntakeOptions,
  IntakeResult,
  ListedTool,
  ToolDiagnostic,
  ToolProjections,
  ToolRepair,
} from './types.ts'

/**
 * Tolerant `tools/list` intake: the verdict on each tool is `judgeMcpToolList` of `@dsh-harden/tools` (the one
 * contract compiler), mapped to MCP shapes; the official SDK then re-checks every tool the core serves (its
 * `ToolSchema`, and ajv on each output schema, as its `listTools` does) as an outside judge. One tool's schema never
 * rejects the page. Compliant tools come back as the very same objects. Linear in the number of tools.
 */
export function intakeToolList(tools: readonly unknown[], options: IntakeOptions): IntakeResult {
  const accepted: ListedTool[] = []
  const repairs: ToolRepair[] = []
  const diagnostics: ToolDiagnostic[] = []
  const projections: ToolProjections[] = []
  const { server } = options
  for (const verdict of judgeMcpToolList(tools, options)) {
    const served = verdict.tool === undefined ? undefined : judgedBySdk(verdict, verdict.tool)
    if (served === undefined || 'isolated' in served) {
      const problems = served === undefined ? verdict.problems : [served.isolated]
      for (const problem of problems) diagnostics.push(diagnostic(server, verdict, problem))
      continue
    }
    for (const repair of verdict.repairs)
      repairs.push({ server, tool: verdict.name, entry: verdict.entry, ...repair })
    for (const problem of served.problems) diagnostics.push(diagnostic(server, verdict, problem))
    accepted.push(served.tool)
    if (verdict.projection !== undefined)
      projections.push({ tool: verdict.name, input: verdict.projection.input, output: served.output })
  }
  return { tools: accepted, repairs, diagnostics, ...(options.profile === undefined ? {} : { projections }) }
}

type Problem = McpToolVerdict['problems'][number]

// A problem with the entry itself is reported against `inputSchema`, with a pointer into the entry (`/name`).
function diagnostic(server: string, verdict: McpToolVerdict, problem: Problem): ToolDiagnostic {
  const schema = problem.schema === 'tool' ? 'inputSchema' : problem.schema
  return {
    server,
    tool: verdict.name,
    schema,
    violations: problem.violations,
    effect: problem.effect,
    entry: verdict.entry,
  }
}

type SdkJudged =
  | { readonly isolated: Problem }
  | {
      readonly tool: ListedTool
      readonly problems: readonly Problem[]
      readonly output: ToolProjections['output']
    }

/** The SDK's word on a tool the core serves: the same tool, the tool without an output schema, or isolated. */
function judgedBySdk(verdict: McpToolVerdict, served: Readonly<Record<string, unknown>>): SdkJudged {
  let tool = served
  const problems = [...verdict.problems]
  let output = verdict.projection?.output
  const compileProblem =
    tool.outputSchema === undefined ? undefined : sdkOutputCompileProblem(tool.outputSchema)
  if (compileProblem !== undefined) {
    const { outputSchema: _dropped, ...rest } = tool
    tool = rest
    output = undefined
    problems.push({
      schema: 'outputSchema',
      effect: 'output-unchecked',
      violations: [
        sdkViolation(
          '',
          'unreadable',
          `the MCP SDK's ajv cannot compile the output schema: ${compileProblem}`,
        ),
      ],
    })
  }
  const issues = sdkToolIssues(tool)
  if (issues.length > 0) {
    return {
      isolated: {
        schema: 'inputSchema',
        effect: 'isolated',
        violations: issues.map((issue) =>
          sdkViolation(
            toPointer(issue.path),
            'keyword-type',
            `the MCP SDK rejects this field: ${issue.message}`,
          ),
        ),
      },
    }
  }
  return { tool: tool as ListedTool, problems, output }
}

function sdkViolation(
  pointer: string,
  rule: 'unreadable' | 'keyword-type',
  message: string,
): SchemaViolation {
  return { pointer, rule, message, hint: 'fix the tool entry so it matches the MCP Tool schema' }
}
