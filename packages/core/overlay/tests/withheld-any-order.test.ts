import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import { verdictLedgerOf } from '../src/dsh/verdicts.ts'
import { HardenOverlay } from '../src/index.ts'
import { BARE_TABLE, besideDshTools, captureStderr, tool, toolPlugin, VALID } from './fixtures.ts'

/**
 * A refused tool is, to every reader of DSH's registry, a tool that was never registered — except that a name
 * mentioning it (`toolOrder`, a subagent's `toolFilter`) keeps working — and that holds whether the overlay started
 * before the tool's plugin or after it. Each reader is DSH's own: `SystemPrompt.assemble()` (its `toolOrder` check),
 * `ToolRuntime.restrict()` (what dsh-subagent's `child-agent.ts` calls with a `toolFilter`), `schemas()`, `get()`,
 * `execute()` and Code Mode's `tools:sdk` section (`sdkSchemas`).
 */

const ORDERS = ['overlay first', 'overlay last', 'never registered'] as const
type Order = (typeof ORDERS)[number]

let stderr: ReturnType<typeof captureStderr> | undefined
afterEach(() => {
  stderr?.restore()
  stderr = undefined
})

interface Scope {
  ctx: { get(name: 'tools'): { restrict(filter: object): () => void } }
}

interface Runtime {
  tools: {
    get(name: string, scope?: object): unknown
    schemas(scope?: object): { name: string }[]
    execute(input: object): Promise<{ isError?: boolean; content?: unknown }>
    register(definition: object): () => void
  }
  systemPrompt: {
    assemble(
      context: object,
    ): Promise<{ tools: { name: string }[]; sections: { name: string; text: string }[] }>
  }
}

/**
 * A stand-in for a Code Mode backend (the worker-thread one is not a dependency here): DSH's own `run_code` transport
 * builds the program's `tools` bindings from the registry and hands them to it; it runs no program and answers with
 * the names it was given, which is all these tests read. The SDK section reads only its `language`.
 */
async function bindingNamesRuntime() {
  const { CodeRuntime } = await besideDshTools<{ CodeRuntime: new (ctx: Context) => object }>(
    '@deepseek-ai/dsh-code-runtime',
  )
  return class BindingNames extends CodeRuntime {
    readonly language = 'typescript'
    readonly isolation = 'none'
    async run(request: { bindings: { functions: Record<string, unknown> }[] }) {
      return { value: request.bindings.flatMap((binding) => Object.keys(binding.functions)).sort(), logs: [] }
    }
  }
}

interface Options {
  readonly toolOrder?: string[]
  readonly mode?: 'code'
}

/** A DSH runtime where plugin `vision` registers a bad `vision` and a good `echo`, in the given order. */
async function session(order: Order, options: Options = {}) {
  const app = new Context()
  await app.plugin(SystemPrompt, options.toolOrder === undefined ? {} : { toolOrder: options.toolOrder })
  if (options.mode === 'code') await app.plugin(await bindingNamesRuntime())
  await app.plugin(ToolRuntime, options.mode === undefined ? {} : { mode: options.mode })
  if (order === 'overlay first') await app.plugin(HardenOverlay)
  const definitions =
    order === 'never registered' ? [tool('echo', VALID)] : [tool('vision', BARE_TABLE), tool('echo', VALID)]
  const plugin = app.plugin(toolPlugin('vision', ...definitions))
  await plugin
  if (order === 'overlay last') await app.plugin(HardenOverlay)
  return { app, runtime: app as unknown as Runtime, plugin }
}

async function call(runtime: Runtime, name: string, agent?: object) {
  const result = await runtime.tools.execute({
    signal: new AbortController().signal,
    callId: 'c1',
    name,
    arguments: {},
    ...(agent === undefined ? {} : { agent }),
  })
  return { isError: result.isError, content: result.content }
}

describe('a refused tool is exactly a tool that was never registered, in any load order', () => {
  it('for schemas(), get(), execution and the prompt, identically in every order', async () => {
    const seen = []
    for (const order of ORDERS) {
      stderr = captureStderr()
      const { runtime } = await session(order)
      stderr.restore()
      seen.push({
        schemas: runtime.tools.schemas(),
        get: runtime.tools.get('vision'),
        call: await call(runtime, 'vision'),
        prompt: (await runtime.systemPrompt.assemble({})).tools,
      })
    }
    expect(seen[0]?.get).toBeUndefined()
    expect(seen[0]?.call.isError).toBe(true)
    expect(seen[1]).toEqual(seen[0])
    expect(seen[2]).toEqual(seen[0])
  })

  it("for Code Mode's SDK section and run_code's tool bindings, identically in every order", async () => {
    const seen = []
    for (const order of ORDERS) {
      stderr = captureStderr()
      const { runtime } = await session(order, { mode: 'code' })
      stderr.restore()
      const assembly = await runtime.systemPrompt.assemble({})
      const run = await runtime.tools.execute({
        signal: new AbortController().signal,
        callId: 'c1',
        name: 'run_code',
        arguments: { code: 'return 1', description: 'list the bindings' },
      })
      seen.push({
        sdk: assembly.sections.find((section) => section.name === 'tools:sdk')?.text ?? '',
        bindings: (run as { value?: { result?: unknown } }).value?.result,
      })
    }
    expect(seen[0]?.sdk).toContain('echo')
    expect(seen[0]?.sdk).not.toContain('vision')
    expect(seen[0]?.bindings).toEqual(['echo'])
    expect(seen[1]).toEqual(seen[0])
    expect(seen[2]).toEqual(seen[0])
  })
})

describe('except that DSH keeps working where it would throw on a name it does not know', () => {
  it('stock DSH fails every assembly on a toolOrder naming a tool that was never registered', async () => {
    const { runtime } = await session('never registered', { toolOrder: ['vision', '<unlisted-tools>'] })
    await expect(runtime.systemPrompt.assemble({})).rejects.toThrow(
      /toolOrder lists unregistered tool "vision"/,
    )
  })

  for (const order of ['overlay first', 'overlay last'] as const) {
    it(`a toolOrder naming the refused tool assembles without it (${order})`, async () => {
      stderr = captureStderr()
      const { runtime } = await session(order, { toolOrder: ['vision', '<unlisted-tools>'] })
      const assembly = await runtime.systemPrompt.assemble({})
      expect(assembly.tools.map((schema) => schema.name)).toEqual(['echo'])
    })

    it(`a subagent toolFilter (restrict) naming the refused tool applies, and the tool stays withheld (${order})`, async () => {
      const { createScope } = await besideDshTools<{ createScope(ctx: object, key: object): Scope }>(
        '@deepseek-ai/dsh-scope',
      )
      stderr = captureStderr()
      const { app, runtime } = await session(order)
      const child = {}
      const scoped = createScope(app, child)
      // What dsh-subagent's child-agent.ts does with a composition's toolFilter.
      expect(() => scoped.ctx.get('tools').restrict({ allow: ['vision', 'echo'] })).not.toThrow()
      expect(() => scoped.ctx.get('tools').restrict({ deny: ['vision'] })).not.toThrow()
      expect(runtime.tools.get('vision', child)).toBeUndefined()
      expect(runtime.tools.get('echo', child)).toBeDefined()
      const assembly = await runtime.systemPrompt.assemble({ scope: child })
      expect(assembly.tools.map((schema) => schema.name)).toEqual(['echo'])
      expect((await call(runtime, 'vision', child)).isError).toBe(true)
    })

    it(`the user is told once, and the verdict is recorded for the Web UI (${order})`, async () => {
      stderr = captureStderr()
      const { app } = await session(order)
      // Read as the Web UI reads it: a tool registered after the overlay started is judged then at the latest.
      const raw = (app as unknown as { tools: Record<symbol, object> }).tools[Symbol.for('cordis.original')]!
      const verdicts = verdictLedgerOf(raw).snapshot().verdicts
      const lines = stderr.text().trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        /tool "vision" .*is withheld: .*names that mention it \(toolOrder, a subagent's/,
      )
      expect(verdicts.map((v) => [v.identity.tool, v.kind, v.early])).toEqual([
        ['vision', 'withheld', order === 'overlay last'],
        ['echo', 'accepted', order === 'overlay last'],
      ])
    })

    it(`the name stays its plugin's: taken while it runs, gone with it (${order})`, async () => {
      stderr = captureStderr()
      const { runtime, plugin } = await session(order, { toolOrder: ['vision', '<unlisted-tools>'] })
      // DSH's own duplicate check, as for any registered tool.
      expect(() => runtime.tools.register(tool('vision', VALID))).toThrow(
        /tool "vision" is already registered/,
      )
      await plugin.dispose()
      // Disposed with its plugin: the name is unknown again, exactly as in stock DSH.
      await expect(runtime.systemPrompt.assemble({})).rejects.toThrow(
        /toolOrder lists unregistered tool "vision"/,
      )
    })
  }
})
