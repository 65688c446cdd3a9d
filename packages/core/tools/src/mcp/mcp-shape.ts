import { isPlainRecord, ownField } from '../json/plain-data.ts'

/**
 * What the MCP specification's `Tool` type demands of `inputSchema` / `outputSchema`, and what the official SDK's zod
 * `ToolSchema` checks (`@modelcontextprotocol/sdk` `types.ts`): an object root (`type: "object"`), `properties` a
 * map of objects, `required` an array of strings. A strict MCP client rejects the whole `tools/list` over one tool
 * that misses it. The SDK stays the outside judge where it is loaded (`@dsh-harden/mcp-client` re-validates with it).
 */
export function meetsMcpSchemaShape(schema: unknown): boolean {
  if (!isPlainRecord(schema) || ownField(schema, 'type') !== 'object') return false
  const properties = ownField(schema, 'properties')
  if (properties !== undefined) {
    if (!isPlainRecord(properties)) return false
    for (const key in properties) {
      const value = properties[key]
      if (typeof value !== 'object' || value === null) return false
    }
  }
  const required = ownField(schema, 'required')
  return required === undefined || (Array.isArray(required) && required.every((n) => typeof n === 'string'))
}
