import { assertSupportedJsonSchema } from '@deepseek-ai/dsh-tools'
import { type ListedTool, loadReferenceCorpus } from '@dsh-harden/testkit/mcp-servers'
import {
  checkProfileContract,
  type JsonObject,
  PROFILE_IDS,
  type ProfileId,
  projectParameters,
} from '@dsh-harden/tools'
import type { CaseRow } from './run-case.ts'

/**
 * Seed 001 as report rows: the real tool lists of @playwright/mcp and the official reference servers, checked
 * against each route's contract as sent today (verbatim) and as projected. For `dsh-subset` the check is DSH's own
 * `assertSupportedJsonSchema`, not ours.
 */
function dshRejects(schema: JsonObject): string | undefined {
  try {
    assertSupportedJsonSchema(schema)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function problemOf(schema: JsonObject, profile: ProfileId): string | undefined {
  if (profile === 'dsh-subset') return dshRejects(schema)
  const violations = checkProfileContract(schema, profile)
  return violations.length === 0
    ? undefined
    : `${violations[0]!.pointer || '(root)'} ${violations[0]!.message}`
}

function summarize(
  tools: readonly { name: string; problem: string | undefined }[],
  verb: string,
): { count: number; detail: string } {
  const failing = tools.filter((tool) => tool.problem !== undefined)
  const example =
    failing[0] === undefined ? '' : `; e.g. ${failing[0].name}: ${failing[0].problem!.slice(0, 120)}`
  return { count: failing.length, detail: `${failing.length}/${tools.length} tools ${verb}${example}` }
}

export async function mcpProfileRows(): Promise<CaseRow[]> {
  const corpus = await loadReferenceCorpus({ raw: true })
  const tools: ListedTool[] = corpus.entries.flatMap((entry) => entry.list?.tools ?? [])
  const listed = corpus.entries.filter((entry) => entry.ok).length
  return PROFILE_IDS.map((profile) => {
    const schemas = tools.map((tool) => ({ name: tool.name, schema: tool.inputSchema as JsonObject }))
    const stock = summarize(
      schemas.map((t) => ({ name: t.name, problem: problemOf(t.schema, profile) })),
      `violate the ${profile} contract`,
    )
    const projected = schemas.map((t) => ({
      name: t.name,
      problem: problemOf(projectParameters(t.schema, profile).wire, profile),
    }))
    const hardened = summarize(projected, `violate it after projection`)
    return {
      id: `mcp-schemas-${profile}`,
      source: `seed 001: ${tools.length} tools, ${listed}/${corpus.entries.length} MCP servers`,
      stock: { outcome: stock.count === 0 ? 'accepted' : 'rejected', detail: stock.detail },
      hardened: { outcome: hardened.count === 0 ? 'accepted' : 'rejected', detail: hardened.detail },
      fixed: tools.length > 0 && hardened.count === 0,
    }
  })
}
