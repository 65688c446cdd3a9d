import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { profileForRoute } from '../src/index.ts'
import { ANY_SLOT, NULLABLE_NOTE, thirdPartySession, tool, toolPlugin } from './fixtures.ts'

interface Agent {
  options: { provider?: string; model?: string }
}

interface Runtime {
  systemPrompt: {
    assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }>
  }
  tools: { execute(input: object): Promise<{ content?: unknown }> }
}

/** The tools DSH would send for `agent`, as `SystemPrompt.assemble()` hands them to the agent loop. */
async function sent(app: Context, agent: Agent): Promise<Record<string, unknown>> {
  const assembly = await (app as unknown as Runtime).systemPrompt.assemble({ agent, scope: agent })
  return Object.fromEntries(assembly.tools.map((t) => [t.name, t.parameters]))
}

const session = thirdPartySession

const JSON_TEXT_SLOT = { type: 'string' }

describe('route detection without a configured profile', () => {
  it('projects for the DeepSeek route an agent uses, and reads arguments back for it', async () => {
    const { app, received } = await session()
    const agent: Agent = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }
    const tools = await sent(app, agent)
    // DeepSeek gets an any-JSON slot as JSON text; the nullable type is left as declared.
    expect(tools.any_json).toMatchObject({ properties: { input: JSON_TEXT_SLOT } })
    expect(tools.maybe_note).toEqual(NULLABLE_NOTE)
    await (app as unknown as Runtime).tools.execute({
      signal: new AbortController().signal,
      callId: 'c1',
      name: 'any_json',
      arguments: { input: '{"a":[1,2]}' },
      agent,
    })
    expect(received).toEqual([{ input: { a: [1, 2] } }])
  })

  it('follows a route switch at the next assembly', async () => {
    const { app } = await session()
    const agent: Agent = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }
    expect((await sent(app, agent)).maybe_note).toEqual(NULLABLE_NOTE)
    agent.options = { provider: 'google', model: 'gemini-2.5-pro' }
    expect((await sent(app, agent)).maybe_note).toMatchObject({
      properties: { note: { type: 'string', nullable: true } },
    })
  })

  it('projects a tool registered between two assemblies, and forgets one disposed, at the next assembly', async () => {
    const { app } = await session()
    const agent: Agent = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }
    expect(Object.keys(await sent(app, agent))).not.toContain('late_json')
    const late = await app.plugin(toolPlugin('late-plugin', tool('late_json', ANY_SLOT)))
    expect((await sent(app, agent)).late_json).toMatchObject({ properties: { input: JSON_TEXT_SLOT } })
    await late.dispose()
    expect(Object.keys(await sent(app, agent))).not.toContain('late_json')
    expect((await sent(app, agent)).any_json).toMatchObject({ properties: { input: JSON_TEXT_SLOT } })
  })

  it('prefers the route DSH model selection puts in the assembly variables over the agent options', async () => {
    const { app } = await session()
    // What dsh-agent's installModelSelection does: an inner `system-prompt/assemble` listener sets the variables.
    app.on(
      'system-prompt/assemble' as never,
      (async (_a: unknown, _c: unknown, next: () => Promise<object>) => ({
        ...(await next()),
        variables: { provider: 'google', model: 'gemini-2.5-pro' },
      })) as never,
    )
    const agent: Agent = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }
    expect((await sent(app, agent)).maybe_note).toMatchObject({ properties: { note: { nullable: true } } })
  })

  it('projects for the conservative profile on a route it cannot place, whatever route came before', async () => {
    const { app } = await session()
    await sent(app, { options: { provider: 'google', model: 'gemini-2.5-pro' } })
    const tools = await sent(app, { options: { provider: 'my-gateway', model: 'house-model' } })
    expect(tools.any_json).toMatchObject({ properties: { input: JSON_TEXT_SLOT } })
    // Not Gemini's `nullable: true`: the type list goes as an anyOf every route takes.
    expect(tools.maybe_note).toMatchObject({
      properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    })
  })

  it('lets an explicit profile win over the detected route', async () => {
    const { app } = await session({ profile: 'gemini' })
    const tools = await sent(app, { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } })
    expect(tools.maybe_note).toMatchObject({ properties: { note: { nullable: true } } })
  })
})

describe('profileForRoute', () => {
  it.each([
    [{ provider: 'deepseek-official', model: 'deepseek-v4-flash' }, 'deepseek'],
    [{ provider: 'openai', model: 'gpt-5' }, 'openai'],
    [{ provider: 'openai-codex', model: 'gpt-5-codex' }, 'codex'],
    [{ provider: 'anthropic', model: 'claude-sonnet-4-5' }, 'anthropic'],
    [{ provider: 'google', model: 'gemini-2.5-pro' }, 'gemini'],
    [{ provider: 'openrouter', model: 'anthropic/claude-sonnet-4-5' }, 'anthropic'],
    [{ provider: 'my-gateway', model: 'house-model' }, undefined],
  ])('%o -> %s', (route, profile) => {
    expect(profileForRoute(route)).toBe(profile)
  })
})
