import type { ListedTool, ToolDiagnostic } from '@dsh-harden/mcp-client'

/** Longest text body returned for one resource. */
export const RESOURCE_TEXT_LIMIT = 8000

type Block = Readonly<Record<string, unknown>>

function base64Size(data: unknown): string {
  return typeof data === 'string' ? `${data.length} base64 characters` : 'no data'
}

/**
 * Text-only projection of MCP content blocks: text passes through; images, audio and binary resources become
 * explicit markers, so the model knows something was there and never pays for base64 it cannot read.
 */
export function renderContent(content: unknown): string {
  if (!Array.isArray(content)) return ''
  const parts: string[] = []
  for (const raw of content as Block[]) {
    if (raw === null || typeof raw !== 'object') continue
    switch (raw.type) {
      case 'text':
        parts.push(typeof raw.text === 'string' ? raw.text : '')
        break
      case 'image':
        parts.push(`[image omitted: ${String(raw.mimeType ?? 'image')}, ${base64Size(raw.data)}]`)
        break
      case 'audio':
        parts.push(`[audio omitted: ${String(raw.mimeType ?? 'audio')}, ${base64Size(raw.data)}]`)
        break
      case 'resource_link':
        parts.push(
          `[resource link: ${String(raw.uri)}${raw.name ? ` (${String(raw.name)})` : ''}; read it with mcp_read_resource]`,
        )
        break
      case 'resource': {
        const resource = (raw.resource ?? {}) as Block
        if (typeof resource.text === 'string') parts.push(`${String(resource.uri)}\n${resource.text}`)
        else
          parts.push(
            `[binary resource omitted: ${[resource.uri, resource.mimeType].filter(Boolean).join(' ')}, ${base64Size(resource.blob)}]`,
          )
        break
      }
      default:
        parts.push(`[${String(raw.type)} content omitted]`)
    }
  }
  return parts.join('\n')
}

/** A `tools/call` result as text: its content, or its structured content when it has no content. */
export function renderCallResult(result: Readonly<Record<string, unknown>>): string {
  const text = renderContent(result.content)
  if (text !== '') return text
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  return '(no output)'
}

/** Whether a listed tool carries Anthropic's `alwaysLoad` hint (`_meta["anthropic/alwaysLoad"]`). */
export function isAlwaysLoad(tool: ListedTool): boolean {
  const meta = tool._meta
  return (
    meta !== null &&
    typeof meta === 'object' &&
    (meta as Record<string, unknown>)['anthropic/alwaysLoad'] === true
  )
}

/** Annotations a model can use to decide whether repeating a call is safe. */
export function safetyNote(tool: ListedTool | undefined): string | undefined {
  const annotations = tool?.annotations as Record<string, unknown> | undefined
  if (!annotations || typeof annotations !== 'object') return undefined
  if (annotations.readOnlyHint === true)
    return 'The server declares this tool read-only, so repeating it is safe.'
  if (annotations.idempotentHint === true)
    return 'The server declares this tool idempotent, so repeating the same arguments should be safe.'
  return undefined
}

/** One tool with its full input schema (what `mcp_tools` returns). */
export function renderTool(tool: ListedTool): string {
  const description =
    typeof tool.description === 'string' && tool.description !== ''
      ? `\n  ${tool.description.trim().replace(/\n/g, '\n  ')}`
      : ''
  return `- ${tool.name}${description}\n  input: ${JSON.stringify(tool.inputSchema ?? { type: 'object' })}`
}

/** The first sentence of a description, at most `limit` characters. */
export function summary(description: unknown, limit = 100): string {
  if (typeof description !== 'string') return ''
  const first = description.trim().split(/(?<=[.!?])\s|\n/)[0] ?? ''
  return first.length > limit ? `${first.slice(0, limit - 1)}…` : first
}

/** Isolated tools, one line each, so a partly broken server explains what is missing. */
export function renderDiagnostics(diagnostics: readonly ToolDiagnostic[]): string[] {
  return diagnostics
    .filter((diagnostic) => diagnostic.effect === 'isolated')
    .map((diagnostic) => {
      const first = diagnostic.violations[0]
      const why = first ? `${first.pointer || '/'} ${first.message}` : 'unusable schema'
      return `- ${diagnostic.tool} (left out: ${diagnostic.schema} ${why})`
    })
}

/** One resource body: uri and mime type on top, text (capped) or a size hint for binary. */
export function renderResourceContents(contents: unknown): string {
  if (!Array.isArray(contents) || contents.length === 0) return '(empty resource)'
  return (contents as Block[])
    .map((content) => {
      const head = `${String(content.uri)} ${String(content.mimeType ?? '')}`.trim()
      if (typeof content.text === 'string') {
        const text = content.text
        return text.length > RESOURCE_TEXT_LIMIT
          ? `${head}\n${text.slice(0, RESOURCE_TEXT_LIMIT)}\n[truncated: ${text.length - RESOURCE_TEXT_LIMIT} more characters]`
          : `${head}\n${text}`
      }
      return `${head}\n[binary resource: ${base64Size(content.blob)}; available to programmatic callers]`
    })
    .join('\n\n')
}
