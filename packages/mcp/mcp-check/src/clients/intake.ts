import { intakeToolList, type ListedTool } from '@dsh-harden/mcp-client'
import type { RawTool } from '../tool-schemas.ts'
import { type ClientVerdict, messageOf } from './verdict.ts'

export const INTAKE_SERVER = 'checked'

/** The tools as `intakeToolList` takes them: entries with a string name (the rest it reports by position). */
export function asListed(tools: readonly RawTool[]): ListedTool[] {
  return tools as unknown as ListedTool[]
}

/**
 * The tolerant intake of `@dsh-harden/mcp-client` (`intakeToolList`, default `contract` policy) over the tools
 * exactly as the raw probe read them: what the hardened DSH bridge, the repair proxy and the gateway would register,
 * even for a server no client can connect to.
 */
export function intakeVerdict(tools: readonly RawTool[], listedOk: boolean): ClientVerdict {
  const started = performance.now()
  const label = '@dsh-harden/mcp-client intakeToolList (the list as read)'
  const elapsed = (): number => Math.round(performance.now() - started)
  if (!listedOk)
    return {
      client: 'dsh-intake',
      label,
      status: 'failed',
      detail: 'no tool list to take in: tools/list was not answered',
      elapsedMs: elapsed(),
    }
  try {
    const result = intakeToolList(asListed(tools), { server: INTAKE_SERVER })
    const isolated = result.diagnostics.filter((d) => d.effect === 'isolated')
    const repaired = new Set(result.repairs.map((r) => r.tool))
    const parts = [`${result.tools.length}/${tools.length} tools taken in`]
    if (repaired.size > 0) parts.push(`${repaired.size} repaired`)
    if (isolated.length > 0)
      parts.push(
        `${isolated.length} isolated (${isolated
          .slice(0, 3)
          .map((d) => `${d.tool}: ${d.violations[0]?.rule ?? d.schema}`)
          .join(', ')}${isolated.length > 3 ? ', …' : ''})`,
      )
    return {
      client: 'dsh-intake',
      label,
      status:
        result.tools.length === 0 ? 'rejected' : result.tools.length < tools.length ? 'partial' : 'accepted',
      tools: result.tools.length,
      detail: parts.join('; '),
      elapsedMs: elapsed(),
    }
  } catch (error) {
    return {
      client: 'dsh-intake',
      label,
      status: 'failed',
      detail: `intakeToolList threw: ${messageOf(error)}`,
      elapsedMs: elapsed(),
    }
  }
}
