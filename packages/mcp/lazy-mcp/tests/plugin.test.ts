import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { checkProfileContract, type JsonObject, PROFILE_IDS, projectParameters } from '@dsh-harden/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { activationOf, GATEWAY_TOOLS, LazyMcp, type LazyMcpGateway } from '../src/index.ts'
import { isAlive, tempDir, tiny, until } from './servers.ts'

type Plugin = Parameters<Context['plugin']>[0]

interface ToolsService {
  schemas(): { name: string; parameters: unknown }[]
  execute(input: {
    callId: string
    name: string
    arguments: unknown
    signal: AbortSignal
  }): Promise<{ isError: boolean; content: { type: string; text?: string }[] }>
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function session(config: Record<string, unknown>) {
  const temp = await tempDir()
  cleanups.push(temp.remove)
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  let gateway: LazyMcpGateway | undefined
  let statusUrl: string | undefined
  let statusToken: string | undefined
  // A wrapper plugin so the test can reach the activation of its own context.
  const probe = {
    name: 'lazy-mcp',
    inject: ['tools'],
    async apply(ctx: object, options: unknown) {
      await LazyMcp.apply(ctx as never, options)
      gateway = activationOf(ctx)?.gateway
      statusUrl = activationOf(ctx)?.status?.url
      statusToken = activationOf(ctx)?.status?.token
    },
  }
  const fiber = app.plugin(probe as Plugin, { cachePath: `${temp.dir}/tool-cache.json`, ...config })
  await fiber
  const tools = (app as unknown as { tools: ToolsService }).tools
  let calls = 0
  const run = async (name: string, args: unknown) => {
    const result = await tools.execute({
      callId: `c${++calls}`,
      name,
      arguments: args,
      signal: new AbortController().signal,
    })
    return { isError: result.isError, text: result.content.map((block) => block.text ?? '').join('') }
  }
  cleanups.push(() => app.fiber.dispose() as Promise<void>)
  return {
    app,
    tools,
    run,
    gateway: gateway!,
    statusUrl,
    statusToken,
    dispose: () => app.fiber.dispose() as Promise<void>,
  }
}

describe('DSH plugin', () => {
  it('registers the five gateway tools in the real DSH registry and starts nothing', async () => {
    const { tools, gateway, statusUrl, statusToken } = await session({
      servers: [tiny()],
      statusListen: '127.0.0.1:0',
    })
    const names = tools.schemas().map((schema) => schema.name)
    expect(names).toEqual(expect.arrayContaining(GATEWAY_TOOLS.map((tool) => tool.name)))
    expect(gateway.detail('tiny')).toMatchObject({ state: 'dormant', attempts: 0 })
    // The token printed at start is what a program needs to read the state.
    expect((await fetch(`${statusUrl}/lazy-mcp/state`)).status).toBe(401)
    const authorized = { headers: { authorization: `Bearer ${statusToken}` } }
    const snapshot = (await (await fetch(`${statusUrl}/lazy-mcp/state`, authorized)).json()) as {
      servers: { state: string }[]
    }
    expect(snapshot.servers[0]?.state).toBe('dormant')
  })

  it('runs calls through the DSH pipeline; failures carry the delivery category', {
    timeout: 600_000,
  }, async () => {
    const { run, gateway } = await session({ servers: [tiny()] })
    expect(await run('mcp_call', { server: 'tiny', tool: 'echo', arguments: { text: 'dsh' } })).toEqual({
      isError: false,
      text: 'echo:dsh',
    })
    const failed = await run('mcp_call', { server: 'tiny', tool: 'fail', arguments: {} })
    expect(failed.isError).toBe(true)
    expect(failed.text).toContain('[delivery=server_error]')
    expect((await run('mcp_servers', {})).text).toContain('tiny: lifecycle=lazy state=ready')
    expect((await run('mcp_tools', { server: 'tiny' })).text).toContain('- echo')
    expect((await run('mcp_tools', { query: 'environment variable' })).text).toContain('[tiny] env')
    expect(gateway.detail('tiny').connections).toBe(1)
  })

  it('disposal releases every server (its process group) and unregisters the tools', {
    timeout: 600_000,
  }, async () => {
    const { run, gateway, tools, dispose } = await session({ servers: [tiny()] })
    await run('mcp_call', { server: 'tiny', tool: 'echo', arguments: {} })
    const pid = gateway.detail('tiny').pid!
    await dispose()
    expect(await until(() => !isAlive(pid))).toBeGreaterThanOrEqual(0)
    expect(tools.schemas().map((schema) => schema.name)).not.toContain('mcp_call')
  })

  it('an invalid configuration fails activation with the exact path', async () => {
    const app = new Context()
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
    cleanups.push(() => app.fiber.dispose() as Promise<void>)
    await expect(
      (async () => {
        await app.plugin(LazyMcp as Plugin, {
          servers: [{ name: 'x', transport: 'stdio', lifecycle: 'lazyy', command: 'a' }],
        })
      })(),
    ).rejects.toThrow(/servers\[0\]\.lifecycle/)
  })

  it('the gateway tools pass every model route, sent as declared where the route takes them as they are', () => {
    // Sent as declared where the route takes a bare `{type:"object"}` slot; other routes reshape the schema (openai and
    // codex add `properties: {}`, strict routes close it), always to a wire their contract accepts.
    const asDeclared = new Set(['deepseek', 'anthropic', 'gemini', 'moonshot'])
    for (const tool of GATEWAY_TOOLS)
      for (const profile of PROFILE_IDS) {
        const projection = projectParameters(tool.parameters as unknown as JsonObject, profile)
        expect(checkProfileContract(projection.wire, profile), `${tool.name} on ${profile}`).toEqual([])
        if (asDeclared.has(profile))
          expect(projection.wire, `${tool.name} on ${profile}`).toBe(tool.parameters)
      }
  })
})
