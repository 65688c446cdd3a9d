import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import { dshRuntime, tool, toolPlugin } from './fixtures.ts'

/**
 * Issue 16 item 4 in the real DSH runtime (`@deepseek-ai/dsh-tools` `ToolRuntime`, `dsh-system-prompt`): a tool name
 * and a property key the route refuses are renamed on the wire, and the call comes back to the tool under the names
 * it registered. Anthropic refuses both: "tools.28.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
 * (cyanheads/atlas-mcp-server#14) and "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"
 * (PrefectHQ/fastmcp#839).
 */
interface Agent {
  options: { provider?: string; model?: string }
}

interface Runtime {
  systemPrompt: {
    assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }>
  }
  tools: {
    execute(input: object): Promise<{ content?: unknown; isError?: boolean }>
    get(name: string, scope?: unknown): unknown
  }
}

const FILTERED = {
  type: 'object',
  properties: { 'filter[name]': { type: 'string' }, limit: { type: 'integer' } },
  required: ['filter[name]'],
}

async function session() {
  const app = await dshRuntime()
  await app.plugin(HardenOverlay)
  const received: unknown[] = []
  const search = tool('issues.search', FILTERED)
  search.execute = async (args: unknown) => {
    received.push(args)
    return 'ok'
  }
  await app.plugin(toolPlugin('third-party', search, tool('plain_tool', { type: 'object', properties: {} })))
  return { app: app as Context & Runtime, received }
}

async function sent(app: Context & Runtime, agent: Agent) {
  return (await app.systemPrompt.assemble({ agent, scope: agent })).tools
}

describe('reversible renames through the overlay', () => {
  it('anthropic: the refused tool name and key are renamed on the wire, and the call reaches the tool as registered', async () => {
    const { app, received } = await session()
    const agent: Agent = { options: { provider: 'anthropic', model: 'claude-sonnet-4-5' } }
    const tools = await sent(app, agent)
    expect(tools.map((t) => t.name)).toEqual(['issues_search', 'plain_tool'])
    const search = tools.find((t) => t.name === 'issues_search')
    expect(search?.parameters).toMatchObject({
      properties: { filter_name_: { type: 'string' }, limit: { type: 'integer' } },
      required: ['filter_name_'],
    })
    const result = await app.tools.execute({
      signal: new AbortController().signal,
      callId: 'c1',
      name: 'issues_search',
      arguments: { filter_name_: 'bug', limit: 3 },
      agent,
    })
    expect(result.isError).not.toBe(true)
    expect(received).toEqual([{ 'filter[name]': 'bug', limit: 3 }])
  })

  it('gemini takes the dotted tool name as it is (its pattern allows dots); the registered name still resolves', async () => {
    const { app } = await session()
    const agent: Agent = { options: { provider: 'google', model: 'gemini-2.5-pro' } }
    expect((await sent(app, agent)).map((t) => t.name)).toEqual(['issues.search', 'plain_tool'])
    expect(app.tools.get('issues.search', agent)).toBeDefined()
    expect(app.tools.get('issues_search', agent)).toBeUndefined()
  })

  it('a wire name is only resolved for the agent whose route renamed it', async () => {
    const { app } = await session()
    const claude: Agent = { options: { provider: 'anthropic', model: 'claude-sonnet-4-5' } }
    const gemini: Agent = { options: { provider: 'google', model: 'gemini-2.5-pro' } }
    await sent(app, claude)
    await sent(app, gemini)
    expect(app.tools.get('issues_search', claude)).toBeDefined()
    expect(app.tools.get('issues_search', gemini)).toBeUndefined()
  })
})
