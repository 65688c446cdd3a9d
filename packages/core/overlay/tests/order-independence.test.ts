import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { JsonSchemaError } from '@dsh-harden/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { HardenOverlay, SourceRecorder } from '../src/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

let stderr: ReturnType<typeof captureStderr> | undefined
afterEach(() => {
  stderr?.restore()
  stderr = undefined
})

const REQUIRED_TRUE = { type: 'object', properties: { q: { type: 'string', required: true } } }

describe('default mode (refuse): a bad tool never takes the session down', () => {
  it('refuses only the bad tool, keeps the plugin and its good tools, and says so once on stderr', async () => {
    const app = await dshRuntime()
    stderr = captureStderr()
    await app.plugin(HardenOverlay)
    await app.plugin(toolPlugin('vision', tool('vision_query', BARE_TABLE), tool('echo', VALID)))
    expect(app.tools.get('vision_query')).toBeUndefined()
    expect(app.tools.schemas().map((s) => s.name)).toEqual(['echo'])
    // Told at the first read of the tools, once however many reads follow.
    const lines = stderr.text().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^dsh-harden: tool "vision_query" from plugin "vision" is withheld: /)
    // The pointer and the fix, as the root contract words them.
    expect(lines[0]).toContain('(root): ')
    expect(lines[0]).toContain('(fix: ')
  })

  it('repair mode sends the repaired schema and says so on stderr', async () => {
    const app = await dshRuntime()
    stderr = captureStderr()
    await app.plugin(HardenOverlay, { mode: 'repair' })
    await app.plugin(toolPlugin('vision', tool('vision_query', BARE_TABLE)))
    expect(app.tools.schemas()[0]?.parameters).toEqual({ type: 'object', properties: BARE_TABLE })
    expect(stderr.text()).toMatch(/tool "vision_query" from plugin "vision" is sent with repaired parameters/)
  })
})

describe('tools registered before the overlay started', () => {
  it('are withheld from every reader in the default mode, with one notice each', async () => {
    const app = await dshRuntime()
    await app.plugin(
      toolPlugin('fast', tool('bad', BARE_TABLE), tool('also_bad', REQUIRED_TRUE), tool('ok', VALID)),
    )
    stderr = captureStderr()
    await app.plugin(HardenOverlay)
    expect(app.tools.get('bad')).toBeUndefined()
    expect(app.tools.get('also_bad')).toBeUndefined()
    expect(app.tools.schemas().map((s) => s.name)).toEqual(['ok'])
    // What DSH puts in the request: the system prompt's tool provider reads the same guarded view.
    const assembly = await (app as unknown as Assembler).systemPrompt.assemble({})
    expect(assembly.tools.map((t) => t.name)).toEqual(['ok'])
    const lines = stderr.text().trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /tool "bad" \(registered before dsh-harden started; its plugin is not known\) is withheld/,
    )
    expect(lines[1]).toMatch(/tool "also_bad" .* is withheld.*\/properties\/q/)
  })

  it('are repaired in repair mode, exactly as a later registration would be', async () => {
    const early = await dshRuntime()
    await early.plugin(toolPlugin('fast', tool('vision_query', BARE_TABLE)))
    stderr = captureStderr()
    await early.plugin(HardenOverlay, { mode: 'repair' })
    const late = await dshRuntime()
    await late.plugin(HardenOverlay, { mode: 'repair' })
    await late.plugin(toolPlugin('fast', tool('vision_query', BARE_TABLE)))
    expect(early.tools.schemas()).toEqual(late.tools.schemas())
    expect(early.tools.get('vision_query')?.parameters).toEqual({ type: 'object', properties: BARE_TABLE })
    expect(stderr.text()).toMatch(
      /tool "vision_query" \(registered before .*\) is sent with repaired parameters/,
    )
  })

  it('fail the overlay, and so the profile, in throw mode', async () => {
    const app = await dshRuntime()
    await app.plugin(toolPlugin('fast', tool('bad', BARE_TABLE)))
    stderr = captureStderr()
    await expect(Promise.resolve(app.plugin(HardenOverlay, { mode: 'throw' }))).rejects.toBeInstanceOf(
      JsonSchemaError,
    )
    // The error is the message: nothing claims the tool was withheld.
    expect(stderr.text()).not.toContain('withheld')
  })

  it('show up again unchanged when the overlay is disposed (stock DSH)', async () => {
    const app = await dshRuntime()
    await app.plugin(toolPlugin('fast', tool('bad', BARE_TABLE)))
    stderr = captureStderr()
    const overlay = app.plugin(HardenOverlay)
    await overlay
    expect(app.tools.get('bad')).toBeUndefined()
    await overlay.dispose()
    expect(app.tools.get('bad')?.parameters).toBe(BARE_TABLE)
  })
})

describe('agent scopes', () => {
  /** dsh-scope as DSH's own tools package loads it (the scope tag is module state, so it must be that copy). */
  async function dshScope(): Promise<{
    createScope(
      ctx: object,
      key: object,
    ): { ctx: { get(name: 'tools'): { register(d: unknown): () => void } } }
  }> {
    const tools = realpathSync(
      new URL('../node_modules/@deepseek-ai/dsh-tools/package.json', import.meta.url),
    )
    return import(pathToFileURL(createRequire(tools).resolve('@deepseek-ai/dsh-scope')).href)
  }

  it('judges tools in an agent scope, registered before the overlay started and after', async () => {
    const { createScope } = await dshScope()
    const app = await dshRuntime()
    const agent = {}
    const scoped = createScope(app, agent)
    scoped.ctx.get('tools').register(tool('scoped_early', BARE_TABLE))
    stderr = captureStderr()
    await app.plugin(HardenOverlay)
    scoped.ctx.get('tools').register(tool('scoped_late', BARE_TABLE))
    scoped.ctx.get('tools').register(tool('scoped_ok', VALID))
    const view = app.tools as unknown as { get(name: string, scope: object): unknown }
    expect(view.get('scoped_early', agent)).toBeUndefined()
    expect(view.get('scoped_late', agent)).toBeUndefined()
    expect(view.get('scoped_ok', agent)).toBeDefined()
    // Really scoped: the global view does not see it.
    expect(app.tools.get('scoped_ok')).toBeUndefined()
    expect(stderr.text()).toMatch(/tool "scoped_early" .* is withheld/)
    expect(stderr.text()).toMatch(/tool "scoped_late" .* is withheld/)
  })
})

describe('the early source recorder row', () => {
  it('lets the overlay name the plugin of a tool that registered before it started', async () => {
    const { Context } = await import('@deepseek-ai/cordis')
    const SystemPrompt = (await import('@deepseek-ai/dsh-system-prompt')).default
    const ToolRuntime = (await import('@deepseek-ai/dsh-tools')).default
    const app = new Context()
    // As in DSH's loader: the light row applies before `tools` exists; the tool plugin waits for the service.
    await app.plugin(SourceRecorder)
    const fast = app.plugin(toolPlugin('fast-third-party', tool('bad', BARE_TABLE), tool('ok', VALID)))
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
    await fast
    stderr = captureStderr()
    await app.plugin(HardenOverlay)
    expect((app as unknown as Awaited<ReturnType<typeof dshRuntime>>).tools.get('bad')).toBeUndefined()
    expect(stderr.text()).toMatch(
      /tool "bad" from plugin "fast-third-party" \(registered before dsh-harden started\) is withheld/,
    )
  })

  it('also works when it starts after the tools service, and steps aside on dispose', async () => {
    const app = await dshRuntime()
    const recorder = app.plugin(SourceRecorder)
    await recorder
    await app.plugin(toolPlugin('fast-third-party', tool('bad', BARE_TABLE)))
    await recorder.dispose()
    const raw = (app.tools as unknown as Record<symbol, object>)[Symbol.for('cordis.original')]!
    expect(Object.hasOwn(raw, 'register')).toBe(false)
    // The recorder is gone, so this one is not attributed.
    await app.plugin(toolPlugin('later', tool('bad2', BARE_TABLE)))
    stderr = captureStderr()
    await app.plugin(HardenOverlay)
    expect(stderr.text()).toMatch(/tool "bad" from plugin "fast-third-party"/)
    expect(stderr.text()).toMatch(
      /tool "bad2" \(registered before dsh-harden started; its plugin is not known\)/,
    )
  })
})

interface Assembler {
  systemPrompt: {
    assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }>
  }
}
