import { intakeToolList } from '@dsh-harden/mcp-client'
import { checkProfileContract, type JsonObject, PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'
import type { RawTool } from '../tool-schemas.ts'
import { isObject } from '../wire/exchange.ts'
import { asListed, INTAKE_SERVER } from './intake.ts'

export interface ToolRejection {
  readonly tool: string
  /** `pointer message` of the first reason. */
  readonly reason: string
}

/** Which tools one model route would refuse: as DSH sends them today, and as dsh-harden would send them. */
export interface ProfileVerdict {
  readonly profile: ProfileId
  readonly tools: number
  /** Stock DSH passes `inputSchema` through verbatim; the route refuses these (and with them, every request). */
  readonly verbatim: readonly ToolRejection[]
  /** After dsh-harden's intake (repair what has one meaning, isolate the rest) and projection for the route. */
  readonly hardened: readonly ToolRejection[]
}

function first(violations: readonly { pointer: string; message: string }[]): string {
  const violation = violations[0]
  return violation === undefined ? '' : `${violation.pointer || '(root)'} ${violation.message}`
}

function nameOf(tool: RawTool, index: number): string {
  return typeof tool.name === 'string' ? tool.name : `#${index}`
}

export function profileVerdicts(tools: readonly RawTool[]): ProfileVerdict[] {
  return PROFILE_IDS.map((profile) => {
    const verbatim: ToolRejection[] = []
    tools.forEach((tool, index) => {
      const schema = tool.inputSchema
      if (!isObject(schema)) {
        verbatim.push({
          tool: nameOf(tool, index),
          reason: `(root) no inputSchema object (${schema === null ? 'null' : typeof schema})`,
        })
        return
      }
      const violations = checkProfileContract(schema as JsonObject, profile)
      if (violations.length > 0) verbatim.push({ tool: nameOf(tool, index), reason: first(violations) })
    })
    const hardened: ToolRejection[] = []
    const intake = intakeToolList(asListed(tools), { server: INTAKE_SERVER, profile })
    for (const diagnostic of intake.diagnostics) {
      if (diagnostic.effect !== 'isolated') continue
      hardened.push({
        tool: diagnostic.tool,
        reason: `isolated at intake: ${diagnostic.violations[0]?.rule ?? ''} ${first(diagnostic.violations)}`,
      })
    }
    for (const projection of intake.projections ?? []) {
      const violations = checkProfileContract(projection.input.wire, profile)
      if (violations.length > 0) hardened.push({ tool: projection.tool, reason: first(violations) })
    }
    return { profile, tools: tools.length, verbatim, hardened }
  })
}
