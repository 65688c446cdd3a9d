import { ContentBlockSchema } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type { Finding } from './findings.ts'
import { describeError, type ReadReply } from './reply.ts'
import type { RawTool } from './tool-schemas.ts'
import { clip, isObject } from './wire/exchange.ts'

/**
 * Which tools `mcp check` calls. Calling a real server's tool can have side effects, so by default only tools the
 * server annotates `readOnlyHint: true` (and not `destructiveHint: true`) are called, and only when they need no
 * arguments or `--call name=<json>` supplies them. `none` calls nothing; `all` calls every tool with arguments
 * synthesized from its schema. Named tools (`--call name`) are always called.
 */
export type CallMode = 'read-only' | 'none' | 'all'

export interface CallPolicy {
  readonly mode: CallMode
  /** Tools to call whatever the mode, each with explicit arguments or `undefined` (synthesized). */
  readonly named: ReadonlyMap<string, Record<string, unknown> | undefined>
}

export const DEFAULT_CALL_POLICY: CallPolicy = { mode: 'read-only', named: new Map() }

export interface PlannedCall {
  readonly tool: string
  readonly arguments: Record<string, unknown>
  /** Why this tool is called: `named`, `read-only` or `all`. */
  readonly reason: 'named' | 'read-only' | 'all'
}

export interface SkippedCall {
  readonly tool: string
  readonly reason: string
}

/** The probe for unknown tools: no server has it, so calling it has no side effect. */
export const UNKNOWN_TOOL = 'dsh-harden-check-no-such-tool'

function requiredOf(tool: RawTool): readonly string[] {
  const schema = tool.inputSchema
  if (!isObject(schema) || !Array.isArray(schema.required)) return []
  return schema.required.filter((name): name is string => typeof name === 'string')
}

/** The smallest value a schema plausibly accepts, for `--call-all` and named calls without arguments. */
function minimalValue(schema: unknown): unknown {
  if (!isObject(schema)) return null
  if (Object.hasOwn(schema, 'const')) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if (Object.hasOwn(schema, 'default')) return schema.default
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return ''
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    case 'array':
      return []
    case 'object':
      return synthesizeArguments(schema)
    default:
      return null
  }
}

export function synthesizeArguments(schema: unknown): Record<string, unknown> {
  if (!isObject(schema)) return {}
  const properties = isObject(schema.properties) ? schema.properties : {}
  const args: Record<string, unknown> = {}
  const required = Array.isArray(schema.required) ? schema.required : []
  for (const name of required) if (typeof name === 'string') args[name] = minimalValue(properties[name])
  return args
}

export function planCalls(
  tools: readonly RawTool[],
  policy: CallPolicy,
): { planned: PlannedCall[]; skipped: SkippedCall[] } {
  const planned: PlannedCall[] = []
  const skipped: SkippedCall[] = []
  const listed = new Set(tools.map((tool) => tool.name))
  for (const [name, args] of policy.named) {
    const tool = tools.find((candidate) => candidate.name === name)
    if (!listed.has(name)) {
      skipped.push({ tool: name, reason: 'named with --call but not listed by the server' })
      continue
    }
    planned.push({ tool: name, arguments: args ?? synthesizeArguments(tool?.inputSchema), reason: 'named' })
  }
  for (const tool of tools) {
    const name = typeof tool.name === 'string' ? tool.name : undefined
    if (name === undefined || policy.named.has(name)) continue
    if (policy.mode === 'all') {
      planned.push({ tool: name, arguments: synthesizeArguments(tool.inputSchema), reason: 'all' })
      continue
    }
    if (policy.mode === 'none') continue
    const annotations = isObject(tool.annotations) ? tool.annotations : {}
    if (annotations.readOnlyHint !== true || annotations.destructiveHint === true) continue
    if (requiredOf(tool).length > 0) {
      skipped.push({
        tool: name,
        reason: `read-only, but needs arguments (${requiredOf(tool).join(', ')}); pass --call ${name}='<json>'`,
      })
      continue
    }
    planned.push({ tool: name, arguments: {}, reason: 'read-only' })
  }
  return { planned, skipped }
}

let validator: AjvJsonSchemaValidator | undefined

function structuredContentProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  try {
    validator ??= new AjvJsonSchemaValidator()
    const result = validator.getValidator(schema as never)(value)
    return result.valid ? undefined : result.errorMessage
  } catch (error) {
    return `the outputSchema does not compile: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** What is wrong with one `tools/call` reply, beyond its envelope (already in `read.findings`). */
export function checkCallResult(tool: RawTool | undefined, name: string, read: ReadReply): Finding[] {
  const at = (message: string, severity: Finding['severity'] = 'violation'): Finding => ({
    check: 'call-content',
    severity,
    tool: name,
    message: `tools/call ${name}: ${message}`,
    evidence: read.evidence,
  })
  if (read.kind === 'timeout')
    return [
      at(
        `${read.detail}: a long-running tool or a hang (the request was cancelled; --call-timeout waits longer)`,
        'warning',
      ),
    ]
  if (read.kind !== 'reply') return [at(`${read.detail ?? 'no reply'}`)]
  if (read.error !== undefined) return []
  const result = read.result
  if (!isObject(result))
    return [
      at(`the result is ${result === undefined ? 'missing' : JSON.stringify(clip(String(result), 60))}`),
    ]
  const findings: Finding[] = []
  if (!Object.hasOwn(result, 'content')) {
    const keys = Object.keys(result)
    findings.push(
      at(
        `the result has no "content" (its keys: ${keys.length === 0 ? 'none' : keys.join(', ')}); the SDK client accepts it as content: [], so the model sees an empty result`,
      ),
    )
  } else if (!Array.isArray(result.content)) {
    findings.push(at(`"content" is ${typeof result.content}, not an array of content blocks`))
  } else {
    result.content.forEach((block, index) => {
      if (findings.length >= 3) return
      const parsed = ContentBlockSchema.safeParse(block)
      if (!parsed.success)
        findings.push(
          at(
            `content[${index}] is not a content block (${parsed.error.issues[0]?.message ?? 'invalid'}): ${clip(JSON.stringify(block), 120)}`,
          ),
        )
    })
  }
  if (Object.hasOwn(result, 'isError') && typeof result.isError !== 'boolean')
    findings.push(at(`"isError" is ${JSON.stringify(result.isError)}, not a boolean`))
  const outputSchema = tool === undefined ? undefined : tool.outputSchema
  if (isObject(outputSchema) && result.isError !== true) {
    if (!Object.hasOwn(result, 'structuredContent'))
      findings.push(at('the tool declares an outputSchema but the result has no structuredContent'))
    else {
      const problem = structuredContentProblem(outputSchema, result.structuredContent)
      if (problem !== undefined)
        findings.push(at(`structuredContent does not match the tool's outputSchema: ${problem}`))
    }
  }
  return findings
}

/** The unknown-tool probe: an integer-coded error, or an `isError` result with content; never a plain success. */
export function checkUnknownToolCall(read: ReadReply): Finding[] {
  const at = (message: string, severity: Finding['severity']): Finding => ({
    check: 'call-content',
    severity,
    message: `tools/call ${UNKNOWN_TOOL} (a tool that does not exist): ${message}`,
    evidence: read.evidence,
  })
  if (read.kind !== 'reply') return [at(read.detail ?? 'no reply', 'violation')]
  if (read.error !== undefined) {
    return read.error.code === -32602 || !Number.isInteger(read.error.code)
      ? []
      : [at(`error ${describeError(read.error)}; the spec names -32602 for an unknown tool`, 'warning')]
  }
  if (isObject(read.result) && read.result.isError === true)
    return checkCallResult(undefined, UNKNOWN_TOOL, read)
  return [at('the server reported success for a tool it does not list', 'violation')]
}
