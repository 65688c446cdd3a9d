import { type ListedTool, loadReferenceCorpus, REFERENCE_SERVERS } from '@dsh-harden/testkit/mcp-servers'
import { type JsonObject, projectParameters } from '@dsh-harden/tools'
import { rejectionOf } from './deepseek-endpoint.ts'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Observed, Row } from './row.ts'

/**
 * Seed 001 as a report row: the real tool lists of `@playwright/mcp` and the official reference servers under the
 * DeepSeek route's schema rules, verbatim as the servers list them and as the `deepseek` profile projects them. The
 * judge is not our contract checker but the local DeepSeek endpoint's rules (`deepseek-endpoint.ts` `rejectionOf`:
 * object root, then meta-schema validation with ajv), the same judge the registration rows are sent to. Both legs
 * pass: the row is a `guard` that projection never makes a schema the endpoint refuses.
 *
 * The other routes' rows (openai, openai-strict, codex, anthropic, gemini) were graded only by our own
 * `checkProfileContract`, so they are unit tests of `@dsh-harden/tools`, not report rows; the DSH-subset judgement
 * (DSH's own `assertSupportedJsonSchema` on the projection) is `tests/mcp-schemas.test.ts`.
 */
const GROUP = 'mcp-schemas'

function leg(tools: readonly { name: string; schema: unknown }[], what: string): Observed {
  const refused = tools.flatMap((tool) => {
    const rejection = rejectionOf({ function: { name: tool.name, parameters: tool.schema } })
    return rejection === undefined ? [] : [rejection]
  })
  return {
    outcome: refused.length === 0 ? 'accepted' : 'refused',
    works: tools.length > 0 && refused.length === 0,
    detail: `${what}: the endpoint refuses ${refused.length} of ${count(tools.length, 'tool')}${refused.length > 0 ? `\n${refused.join('\n')}` : ''}`,
  }
}

export function deepseekSchemaRow(
  tools: readonly ListedTool[],
  listed: readonly string[],
  failed: readonly string[],
): Row {
  const verbatim = tools.map((tool) => ({ name: tool.name, schema: tool.inputSchema }))
  const projected = tools.map((tool) => ({
    name: tool.name,
    schema: projectParameters(tool.inputSchema as JsonObject, 'deepseek').wire,
  }))
  return {
    id: 'mcp-schemas-deepseek',
    group: GROUP,
    kind: 'guard',
    proves:
      'every tool schema of the five reference MCP servers is accepted by the DeepSeek route’s rules, verbatim and after the deepseek projection',
    source: `seed 001: ${count(tools.length, 'tool')} from ${listed.length} of ${count(REFERENCE_SERVERS.length, 'MCP server')}`,
    stock: leg(verbatim, 'verbatim, as the servers list them'),
    hardened: leg(projected, 'projected for deepseek'),
    checks: [
      {
        what: `every reference server listed its tools (${listed.length}/${REFERENCE_SERVERS.length}${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''})`,
        ok: listed.length === REFERENCE_SERVERS.length && failed.length === 0,
      },
    ],
  }
}

export async function run(context: GroupContext): Promise<Row[]> {
  const corpus = await loadReferenceCorpus({ raw: true })
  for (const entry of corpus.entries)
    if (!entry.ok)
      context.log(`${entry.server} did not list its tools: ${entry.error?.message ?? 'no error'}`)
  const tools = corpus.entries.flatMap((entry) => entry.list?.tools ?? [])
  const listed = corpus.entries.filter((entry) => entry.ok).map((entry) => entry.server)
  const failed = corpus.entries.filter((entry) => !entry.ok).map((entry) => entry.server)
  return [deepseekSchemaRow(tools, listed, failed)]
}
