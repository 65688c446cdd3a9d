import type { JsonObject, ProfileId } from '@dsh-harden/tools'
import { toPointer } from '@dsh-harden/tools'
import { isRecord, schemaNodes } from './schema-nodes.ts'
import type { Judge, JudgeOutcome } from './types.ts'

/**
 * Refusals that providers' APIs are reported to make, as SOURCES.md quotes them, probed on a wire schema. Not a rule of the table (the table's verdicts come from `@dsh-harden/tools` alone): a cross
 * check that shows where the live rules still send something a provider is reported to refuse. Each probe names the
 * report it comes from. Tool names are not probed: DSH's MCP intake already sends every MCP tool as
 * `mcp__<server>__<tool>` cut to `[A-Za-z0-9_-]{1,64}` (`publicToolName`, `packages/mcp/mcp-client/src/tools.ts`),
 * which every route's name pattern takes.
 */
interface Probe {
  readonly profiles: readonly ProfileId[]
  /** The quoted error and where it was reported. */
  readonly reported: string
}

const ARRAY_ITEMS: Probe = {
  profiles: ['openai', 'openai-strict', 'codex'],
  reported: '"array schema missing items" (sigoden/aichat#1049; gumloop/guMCP#136)',
}
const LOOKAROUND: Probe = {
  profiles: ['openai', 'openai-strict', 'codex'],
  reported: '"regex lookaround is not supported" (anomalyco/opencode#32073; decolua/9router#1556)',
}
const PROPERTY_KEY: Probe = {
  profiles: ['anthropic'],
  reported: '"Property keys should match pattern \'^[a-zA-Z0-9_.-]{1,64}$\'" (PrefectHQ/fastmcp#839)',
}
const REQUIRED_UNDECLARED: Probe = {
  profiles: ['gemini'],
  reported: '"required[0]: property is not defined" (iBUHub/AIStudioToAPI#154; cline#11162)',
}
const STRING_ENUM: Probe = {
  profiles: ['gemini'],
  reported: '"enum: only allowed for STRING type" (nanbingxyz/5ire#218; anomalyco/opencode#4512)',
}

const ANTHROPIC_KEY = /^[a-zA-Z0-9_.-]{1,64}$/
// `(?=`, `(?!`, `(?<=`, `(?<!` not preceded by an escaping backslash.
const LOOKAROUND_SYNTAX = /(?<!\\)\(\?<?[=!]/

function findings(schema: JsonObject, profile: ProfileId): string[] {
  const found: string[] = []
  const applies = (probe: Probe) => probe.profiles.includes(profile)
  for (const { node, path } of schemaNodes(schema)) {
    const at = toPointer([...path]) || '(root)'
    const types = Array.isArray(node.type) ? node.type : [node.type]
    if (
      applies(ARRAY_ITEMS) &&
      types.includes('array') &&
      node.items === undefined &&
      node.prefixItems === undefined
    )
      found.push(`${at}: an array without items; reported ${ARRAY_ITEMS.reported}`)
    if (applies(LOOKAROUND) && typeof node.pattern === 'string' && LOOKAROUND_SYNTAX.test(node.pattern))
      found.push(`${at}/pattern: lookaround; reported ${LOOKAROUND.reported}`)
    if (isRecord(node.properties)) {
      const declared = node.properties
      if (applies(PROPERTY_KEY))
        for (const key of Object.keys(declared))
          if (!ANTHROPIC_KEY.test(key))
            found.push(`${at}/properties: key ${JSON.stringify(key)}; reported ${PROPERTY_KEY.reported}`)
      if (applies(REQUIRED_UNDECLARED) && Array.isArray(node.required))
        for (const key of node.required)
          if (typeof key === 'string' && !Object.hasOwn(declared, key))
            found.push(
              `${at}/required: ${JSON.stringify(key)} is not declared; reported ${REQUIRED_UNDECLARED.reported}`,
            )
    } else if (applies(REQUIRED_UNDECLARED) && Array.isArray(node.required) && node.required.length > 0)
      found.push(`${at}/required: names keys with no properties; reported ${REQUIRED_UNDECLARED.reported}`)
    if (applies(STRING_ENUM) && Array.isArray(node.enum) && node.enum.some((v) => typeof v !== 'string'))
      found.push(`${at}/enum: a value that is not a string; reported ${STRING_ENUM.reported}`)
  }
  return found
}

export const reportedErrorsJudge: Judge = {
  id: 'reported-errors',
  source:
    'API refusals quoted in compat/SOURCES.md §1, §3, §4, §7 (probes on the schema, not rules of the table)',
  profiles: ['openai', 'openai-strict', 'codex', 'anthropic', 'gemini'],
  async judge(schema: JsonObject, _toolName: string, profile: ProfileId): Promise<JudgeOutcome> {
    const found = findings(schema, profile)
    return found.length === 0
      ? { outcome: 'unchanged' }
      : { outcome: 'refused', message: found.slice(0, 5).join(' | ') }
  },
}
