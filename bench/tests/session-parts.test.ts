import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, describe, expect, it } from 'vitest'
import { simpleToolSpecs } from '../src/generated-tools.ts'
import { createToolRuntime } from '../src/runtime.ts'
import {
  PLUGIN_FILE,
  pairedResult,
  SERVER_FILE,
  SESSION_FORMS,
  type SessionRun,
  turnScript,
} from '../src/session.bench.ts'

const dir = mkdtempSync(join(tmpdir(), 'bench-session-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const specs = simpleToolSpecs(40)
const specsFile = join(dir, 'tools.json')
writeFileSync(specsFile, JSON.stringify(specs))

describe('turnScript', () => {
  it('scripts 5 calls to generated tools under each form’s wire name, then a final answer without calls', () => {
    for (const form of SESSION_FORMS) {
      const steps = turnScript(form, specs)
      expect(steps).toHaveLength(6)
      const names = steps
        .slice(0, 5)
        .map((step) => (step as { toolCalls: { name: string }[] }).toolCalls[0]!.name)
      expect(names).toEqual(specs.slice(0, 5).map((spec) => form.wireName(spec.name)))
      expect(steps[5]).toEqual({ text: 'done' })
    }
    expect(SESSION_FORMS.find((form) => form.form === 'mcp')!.wireName('x')).toBe('mcp__gen__x')
  })
})

describe('pairedResult', () => {
  it('takes one ratio per pair, in pair order, and the median of each side', () => {
    const run = (stepMs: number) => ({ stepMs }) as SessionRun
    const result = pairedResult(
      'steps',
      [run(100), run(200), run(400)],
      [run(110), run(100), run(800)],
      (r) => r.stepMs,
      ['stock', 'overlay'],
      [],
    )
    // Ratios 1.1, 0.5, 2: a pair's ratio is never mixed with another pair's runs.
    expect(result.ratio.median).toBeCloseTo(1.1)
    expect(result.ratio.p25).toBeCloseTo(0.8)
    expect(result.ratio.p75).toBeCloseTo(1.55)
    expect(result.peer).toEqual({ label: 'stock', nsPerOp: 200 })
    expect(result.subject).toEqual({ label: 'overlay', nsPerOp: 110 })
    expect(result.rounds).toBe(3)
  })
})

describe('session fixtures', () => {
  it('the plugin registers every tool of its spec file into a real ToolRuntime', async () => {
    const app = await createToolRuntime({ hardened: false })
    const plugin = (await import(pathToFileURL(PLUGIN_FILE).href)) as Parameters<typeof app.plugin>[0]
    await app.plugin(plugin, { specs: specsFile })
    for (const spec of specs) expect(app.tools.get(spec.name)?.parameters).toEqual(spec.parameters)
  })

  it('the MCP server lists every tool with its parameters as inputSchema, to the official SDK client', async () => {
    const client = new Client({ name: 'bench-test', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [SERVER_FILE, specsFile] }),
    )
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(specs.map((spec) => spec.name))
      expect(tools[7]!.inputSchema).toEqual(specs[7]!.parameters)
      const called = await client.callTool({ name: specs[0]!.name, arguments: { query: 'q' } })
      expect(called.content).toEqual([{ type: 'text', text: `called ${specs[0]!.name} {"query":"q"}` }])
    } finally {
      await client.close()
    }
  })
})
