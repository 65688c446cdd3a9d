import { judgeMcpToolList, toPointer } from '@dsh-harden/tools'
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Finding } from './findings.ts'
import { isObject } from './wire/exchange.ts'

/** A listed tool exactly as the server sent it. */
export type RawTool = Readonly<Record<string, unknown>>

interface ZodIssue {
  readonly path: readonly PropertyKey[]
  readonly message: string
}

function pointerOf(path: readonly PropertyKey[]): string {
  return toPointer(path.map((segment) => String(segment)))
}

function describeIssue(tool: RawTool, issue: ZodIssue): string {
  const [field, ...rest] = issue.path
  if (typeof field === 'string' && rest.length === 0 && tool[field] === undefined)
    return field === 'inputSchema' ? 'has no inputSchema' : `has no ${field}`
  if (rest.length === 1 && rest[0] === 'type') {
    const schema = tool[String(field)]
    const type = isObject(schema) ? schema.type : undefined
    return type === undefined
      ? `${String(field)} has no "type": "object"${isObject(schema) && Object.keys(schema).length === 0 ? ' (it is {})' : ''}`
      : `${String(field)} has "type": ${JSON.stringify(type)}, not "object"`
  }
  return `${issue.path.map(String).join('.') || '(tool)'}: ${issue.message}`
}

/**
 * The spec's Tool shape, judged by the SDK's own schema (`ToolSchema`, what the official client, Claude Code and
 * DSH's `dsh-mcp-client` validate every listed tool against; one failure rejects the whole list), then, for a tool the
 * SDK takes, the MCP boundary of `@dsh-harden/tools` for what the spec allows but model routes refuse.
 */
export function checkListedTool(tool: RawTool, index: number): Finding[] {
  const name = typeof tool.name === 'string' ? tool.name : `#${index}`
  const findings: Finding[] = []
  const parsed = ToolSchema.safeParse(tool)
  if (!parsed.success) {
    for (const issue of parsed.error.issues as readonly ZodIssue[]) {
      const field = issue.path[0]
      const check =
        field === 'inputSchema' ? 'input-schema' : field === 'outputSchema' ? 'output-schema' : 'tools-list'
      findings.push({
        check,
        severity: 'violation',
        tool: name,
        pointer: pointerOf(issue.path),
        message: `${name}: ${describeIssue(tool, issue)} (the SDK client reports "${issue.message}" at tools.${index}.${issue.path.map(String).join('.')})`,
      })
    }
  }
  if (parsed.success) findings.push(...contractWarnings(tool, name))
  return findings
}

/**
 * What dsh-harden's MCP boundary (`judgeMcpToolList`, `contract` policy: the verdict the hardened intake, the gateway
 * and `sanitize` serve) repairs or isolates in a tool the SDK accepts: the spec allows it, some model route refuses it.
 */
function contractWarnings(tool: RawTool, name: string): Finding[] {
  const [verdict] = judgeMcpToolList([tool])
  if (verdict === undefined) return []
  const found = [
    ...verdict.repairs.map((r) => ({
      schema: r.schema,
      violations: r.repaired,
      effect: 'dsh-harden repairs it',
    })),
    ...verdict.problems.map((p) => ({
      schema: p.schema,
      violations: p.violations,
      effect:
        p.effect === 'isolated' ? 'dsh-harden leaves the tool out' : 'dsh-harden drops the output schema',
    })),
  ]
  return found.flatMap(({ schema, violations, effect }) =>
    violations.map((violation) => ({
      check: schema === 'outputSchema' ? 'output-schema' : 'input-schema',
      severity: 'warning' as const,
      tool: name,
      pointer: schema === 'tool' ? violation.pointer : `/${schema}${violation.pointer}`,
      message: `${name}: ${violation.message} (${violation.rule}; ${effect}; fix: ${violation.hint})`,
    })),
  )
}
