import { readFile } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
// DSH's own tool plugins are bench's dependencies: its loader mounts them on a stock runtime and records each definition.
import { collectFirstPartyTools } from '../../../../bench/src/first-party-tools.ts'
import { loadReferenceCorpus, type RawServerToolList } from '../src/mcp-servers.ts'
import {
  formatReport,
  hardSchema,
  type RoundTripReport,
  roundTrip,
  type ToolUnderTest,
} from '../src/round-trip/index.ts'

/**
 * Issue 23, item 1: stock is the oracle for data. Over every route profile (read when the run starts), valid values
 * written by a model that reads only the wire come back exactly as meant, and values sent verbatim reach the tool as
 * stock hands them. Bounded by run counts; prints per route what was checked.
 */
const SEED = 23

function expectExact(title: string, report: RoundTripReport): void {
  console.log(formatReport(title, report))
  for (const route of report.routes) {
    const examples = route.examples.join('\n  ')
    expect(
      route.mismatches,
      `${title}, ${route.profile}: encoded values read back changed:\n  ${examples}`,
    ).toBe(0)
    expect(
      route.verbatimMismatches,
      `${title}, ${route.profile}: verbatim values changed:\n  ${examples}`,
    ).toBe(0)
  }
  expect(report.routes.reduce((sum, route) => sum + route.checked, 0)).toBeGreaterThan(0)
}

describe('the differential round trip', () => {
  it('generated schemas of the hard families', { timeout: 600_000 }, () => {
    const tools = fc
      .sample(hardSchema, { numRuns: 120, seed: SEED })
      .map(
        (parameters, index): ToolUnderTest => ({ name: `hard_${index}`, source: 'fast-check', parameters }),
      )
    expectExact('generated schemas', roundTrip(tools, { valuesPerTool: 20, seed: SEED }))
  })

  it("DSH's first-party tools", { timeout: 600_000 }, async () => {
    const { definitions, missing } = await collectFirstPartyTools()
    expect(missing).toEqual([])
    const tools = definitions.map((definition) => ({
      name: definition.name,
      source: 'dsh first-party',
      parameters: definition.parameters,
    }))
    expectExact('first-party tools', roundTrip(tools, { valuesPerTool: 60, seed: SEED }))
  })

  it('real MCP servers, as listed, and the recorded tools/list fixture', { timeout: 600_000 }, async () => {
    const corpus = await loadReferenceCorpus({ raw: true })
    const tools: ToolUnderTest[] = []
    for (const entry of corpus.entries) {
      expect(entry.ok, `${entry.server}: ${entry.error?.message}`).toBe(true)
      // Listed with `raw: true`, so each list carries the tools verbatim.
      const list = entry.list as RawServerToolList | undefined
      for (const tool of list?.rawTools ?? [])
        tools.push({ name: String(tool.name), source: entry.server, parameters: tool.inputSchema })
    }
    const fixture = JSON.parse(
      await readFile(new URL('../../../cli/tests/fixtures/mcp-tools.json', import.meta.url), 'utf8'),
    ) as { tools: { name: string; inputSchema: unknown }[] }
    for (const tool of fixture.tools)
      tools.push({ name: tool.name, source: 'cli fixture', parameters: tool.inputSchema })
    expectExact('MCP tools', roundTrip(tools, { valuesPerTool: 30, seed: SEED }))
  })
})
