import { ToolSchema } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'

/**
 * The outside judge. Every schema decision is made by `@dsh-harden/tools` (`judgeMcpToolList`); the official SDK,
 * which strict MCP clients (DSH's `dsh-mcp-client` among them) run over the whole `tools/list`, re-checks what the core
 * decided to serve. A disagreement isolates the tool with the SDK's own words instead of failing the page.
 */

/** The SDK's zod check of one `inputSchema`/`outputSchema` (the `Tool` type's object-root rules). */
export function sdkAcceptsSchema(schema: unknown): boolean {
  return ToolSchema.shape.inputSchema.safeParse(schema).success
}

export interface SdkIssue {
  /** JSON-pointer segments into the tool entry. */
  readonly path: readonly (string | number)[]
  readonly message: string
}

/** Every field the SDK's `ToolSchema` rejects in one served tool (title, annotations, icons, `_meta`, the schemas). */
export function sdkToolIssues(tool: unknown): readonly SdkIssue[] {
  const parsed = ToolSchema.safeParse(tool)
  if (parsed.success) return []
  return parsed.error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
    message: issue.message,
  }))
}

let validator: AjvJsonSchemaValidator | undefined

/** What the SDK's `listTools` does with every output schema: compile it with its ajv; `undefined` when that works. */
export function sdkOutputCompileProblem(schema: unknown): string | undefined {
  try {
    validator ??= new AjvJsonSchemaValidator()
    validator.getValidator(schema as never)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
