import { type JsonObject, projectParameters, type SchemaViolation } from '@dsh-harden/tools'
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { intakeSchema, type SchemaVerdict, sdkAcceptsSchema } from './schema-intake.ts'
import type {
  IntakeOptions,
  IntakeResult,
  ListedTool,
  ToolDiagnostic,
  ToolProjections,
  ToolRepair,
} from './types.ts'

/**
 * Tolerant `tools/list` intake: each tool is judged on its own, so one tool's schema never rejects the page.
 * Compliant tools come back as the very same objects; a tool with a one-meaning mistake comes back repaired (a new
 * object, every other field as listed); anything else is isolated with a diagnostic naming server, tool, pointer and
 * rule. Linear in the number of tools.
 */
export function intakeToolList(tools: readonly unknown[], options: IntakeOptions): IntakeResult {
  const intake = new Intake(options)
  const duplicates = intake.policy === 'contract' ? duplicateNames(tools) : new Set<string>()
  const accepted: ListedTool[] = []
  for (const [entry, listed] of tools.entries()) {
    const tool = intake.tool(listed, entry, duplicates)
    if (tool !== undefined) accepted.push(tool)
  }
  return {
    tools: accepted,
    repairs: intake.repairs,
    diagnostics: intake.diagnostics,
    ...(options.profile === undefined ? {} : { projections: intake.projections }),
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function duplicateNames(tools: readonly unknown[]): Set<string> {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const tool of tools) {
    const name = isPlainObject(tool) ? tool.name : undefined
    if (typeof name !== 'string') continue
    if (seen.has(name)) twice.add(name)
    seen.add(name)
  }
  return twice
}

function entryViolation(pointer: string, rule: 'unreadable' | 'keyword-type', message: string, hint: string) {
  return { pointer, rule, message, hint } satisfies SchemaViolation
}

class Intake {
  readonly repairs: ToolRepair[] = []
  readonly diagnostics: ToolDiagnostic[] = []
  readonly projections: ToolProjections[] = []
  readonly policy: 'contract' | 'spec'
  private readonly options: IntakeOptions
  private validator: AjvJsonSchemaValidator | undefined

  constructor(options: IntakeOptions) {
    this.options = options
    this.policy = options.policy ?? 'contract'
  }

  private isolate(
    tool: string,
    entry: number,
    schema: ToolDiagnostic['schema'],
    violations: SchemaViolation[],
  ) {
    this.diagnostics.push({
      server: this.options.server,
      tool,
      schema,
      violations,
      effect: 'isolated',
      entry,
    })
    return undefined
  }

  tool(listed: unknown, entry: number, duplicates: ReadonlySet<string>): ListedTool | undefined {
    const label = `#${entry}`
    if (!isPlainObject(listed)) {
      return this.isolate(label, entry, 'inputSchema', [
        entryViolation('', 'unreadable', 'the listed tool is not an object', 'list each tool as an object'),
      ])
    }
    if (typeof listed.name !== 'string') {
      return this.isolate(label, entry, 'inputSchema', [
        entryViolation(
          '/name',
          'unreadable',
          'the listed tool has no string `name`',
          'give every tool a name',
        ),
      ])
    }
    const name = listed.name
    if (duplicates.has(name)) {
      return this.isolate(name, entry, 'inputSchema', [
        entryViolation(
          '/name',
          'unreadable',
          `the server lists "${name}" more than once; which definition is meant is ambiguous`,
          'list each tool name once',
        ),
      ])
    }
    const input = intakeSchema(listed.inputSchema, 'inputSchema', { ...this.options, policy: this.policy })
    if (input.kind === 'rejected') return this.isolate(name, entry, 'inputSchema', [...input.violations])
    const output = this.output(name, entry, listed.outputSchema)
    let tool: ListedTool = listed as ListedTool
    if (input.kind === 'repaired' || output.changed) {
      tool = { ...listed, name } as ListedTool
      if (input.kind === 'repaired') (tool as Record<string, unknown>).inputSchema = input.schema
      if (output.changed) {
        if (output.schema === undefined) delete (tool as Record<string, unknown>).outputSchema
        else (tool as Record<string, unknown>).outputSchema = output.schema
      }
    }
    // Everything else the SDK checks (title, annotations, icons, execution, _meta): one bad field rejects the page.
    const sdk = ToolSchema.safeParse(tool)
    if (!sdk.success) {
      return this.isolate(
        name,
        entry,
        'inputSchema',
        sdk.error.issues.map((issue) =>
          entryViolation(
            `/${issue.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
            'keyword-type',
            `the MCP SDK rejects this field: ${issue.message}`,
            'fix the tool entry so it matches the MCP Tool schema',
          ),
        ),
      )
    }
    if (input.kind === 'repaired') this.recordRepair(name, entry, 'inputSchema', input)
    this.project(name, tool)
    return tool
  }

  private recordRepair(tool: string, entry: number, schema: ToolRepair['schema'], verdict: SchemaVerdict) {
    if (verdict.kind !== 'repaired') return
    this.repairs.push({ server: this.options.server, tool, schema, repaired: verdict.repaired, entry })
  }

  /** The output schema to list: repaired, dropped (output-unchecked) or the very same value. */
  private output(tool: string, entry: number, schema: unknown): { changed: boolean; schema: unknown } {
    if (schema === undefined) return { changed: false, schema }
    const verdict = intakeSchema(schema, 'outputSchema', { ...this.options, policy: this.policy })
    if (verdict.kind === 'rejected') return this.uncheckedOutput(tool, entry, [...verdict.violations])
    const candidate = verdict.schema as JsonObject
    if (!sdkAcceptsSchema(candidate)) {
      return this.uncheckedOutput(tool, entry, [
        entryViolation(
          '',
          'keyword-type',
          'the MCP SDK rejects this output schema',
          'list an object-rooted output schema',
        ),
      ])
    }
    // Strict clients (the SDK's `listTools`) compile every output schema with ajv and fail the page if one throws.
    try {
      this.validator ??= new AjvJsonSchemaValidator()
      this.validator.getValidator(candidate)
    } catch (error) {
      return this.uncheckedOutput(tool, entry, [
        entryViolation(
          '',
          'unreadable',
          `the output schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
          'list an output schema ajv can compile, or none',
        ),
      ])
    }
    if (verdict.kind === 'ok') return { changed: false, schema }
    this.recordRepair(tool, entry, 'outputSchema', verdict)
    return { changed: true, schema: verdict.schema }
  }

  private uncheckedOutput(tool: string, entry: number, violations: SchemaViolation[]) {
    this.diagnostics.push({
      server: this.options.server,
      tool,
      schema: 'outputSchema',
      violations,
      effect: 'output-unchecked',
      entry,
    })
    return { changed: true, schema: undefined }
  }

  private project(name: string, tool: ListedTool): void {
    const profile = this.options.profile
    if (profile === undefined) return
    // Under `spec` a schema may not meet the root contract projection assumes; such a tool gets no projection.
    try {
      const input = projectParameters(tool.inputSchema as JsonObject, profile)
      const output =
        tool.outputSchema === undefined
          ? undefined
          : projectParameters(tool.outputSchema as JsonObject, profile)
      this.projections.push({ tool: name, input, ...(output === undefined ? {} : { output }) })
    } catch {}
  }
}
