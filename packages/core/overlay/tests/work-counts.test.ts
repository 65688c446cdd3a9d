import type { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { addDefinitionTransform, HardenOverlay } from '../src/index.ts'
import { besideDshTools, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

/**
 * The overlay's cost is counted, not timed: DSH's `ToolRuntime.view` (the private resolver that builds one scope's
 * whole registry view, O(tools)) and walks over DSH's tables. Stock DSH builds one view per prompt assembly and none per
 * registration; the overlay must stay within that, at any number of tools.
 */

const RAW = Symbol.for('cordis.original')
const DEEPSEEK = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }

interface Runtime {
  tools: {
    get(name: string, scope?: object): unknown
    register(definition: object): () => void
  }
  systemPrompt: { assemble(context: object): Promise<{ tools: { name: string }[] }> }
}

interface Scope {
  ctx: {
    get(name: 'tools'): {
      register(definition: object): () => void
      restrict(filter: object): () => void
      presentAs(mode: string): () => void
    }
  }
}

interface ScopeModule {
  createScope(ctx: object, key: object, options?: { parent?: object }): Scope
  bindScopeParent(key: object, parent: object): { rebind(parent: object): void }
}

const views = vi.spyOn(
  (ToolRuntime as unknown as { prototype: { view(scope?: unknown): unknown } }).prototype,
  'view',
)
afterEach(() => views.mockClear())

function tools(count: number, prefix = 'tool'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => tool(`${prefix}_${index}`, VALID))
}

async function runtime(hardened: boolean, count: number) {
  const app = await dshRuntime()
  if (hardened) await app.plugin(HardenOverlay)
  await app.plugin(toolPlugin('many', ...tools(count)))
  return app as unknown as Runtime & Context
}

/** DSH `view` builds during one assembly for the agent, after a change (a registration) and then with none. */
async function viewsPerAssembly(app: Runtime): Promise<{ afterChange: number; unchanged: number }> {
  app.tools.register(tool('fresh', VALID))
  views.mockClear()
  await app.systemPrompt.assemble({ agent: DEEPSEEK, scope: DEEPSEEK })
  const afterChange = views.mock.calls.length
  views.mockClear()
  await app.systemPrompt.assemble({ agent: DEEPSEEK, scope: DEEPSEEK })
  return { afterChange, unchanged: views.mock.calls.length }
}

describe('prompt assembly builds DSH views a bounded number of times, not once per tool', () => {
  it('at most as many as stock DSH, the same at 10 tools and at 400', async () => {
    const counts = []
    for (const count of [10, 400]) {
      const stock = await viewsPerAssembly(await runtime(false, count))
      const overlay = await viewsPerAssembly(await runtime(true, count))
      expect(overlay.afterChange).toBeLessThanOrEqual(stock.afterChange)
      expect(overlay.unchanged).toBeLessThanOrEqual(stock.unchanged)
      counts.push(overlay)
    }
    expect(counts[0]).toEqual(counts[1])
    expect(counts[0]).toEqual({ afterChange: 1, unchanged: 0 })
  })

  it('a call resolves its tool without a view build per call', async () => {
    const app = await runtime(true, 50)
    await app.systemPrompt.assemble({ agent: DEEPSEEK, scope: DEEPSEEK })
    views.mockClear()
    for (let index = 0; index < 50; index++) expect(app.tools.get(`tool_${index}`, DEEPSEEK)).toBeDefined()
    expect(views.mock.calls.length).toBe(0)
  })
})

describe('registration does O(1) registry work per tool', () => {
  /** Counts every walk over the global table's map (its iterators), where a per-registration rebuild would show. */
  function countTableWalks(app: Context): { walks(): number } {
    const raw = (
      app as unknown as { tools: Record<symbol, { layers: { global: { tools: { data: object } } } }> }
    ).tools[RAW]!
    const data = raw.layers.global.tools.data as Map<string, unknown>
    let walks = 0
    for (const method of ['entries', 'values', 'keys', Symbol.iterator] as const) {
      const original = data[method].bind(data)
      Object.defineProperty(data, method, {
        configurable: true,
        value: () => {
          walks++
          return original()
        },
      })
    }
    return { walks: () => walks }
  }

  it('no view build and no table walk while N tools register, at 10 and at 400', async () => {
    for (const count of [10, 400]) {
      const app = await dshRuntime()
      await app.plugin(HardenOverlay)
      app.tools.register(tool('first', VALID))
      const counter = countTableWalks(app)
      views.mockClear()
      await app.plugin(toolPlugin('many', ...tools(count)))
      expect(views.mock.calls.length).toBe(0)
      expect(counter.walks()).toBe(0)
      expect(app.tools.get(`tool_${count - 1}`)).toBeDefined()
    }
  })

  it('a transform added after N tools registered walks the tables once and calls itself once per tool', async () => {
    for (const count of [10, 400]) {
      const app = await dshRuntime()
      await app.plugin(HardenOverlay)
      await app.plugin(toolPlugin('many', ...tools(count)))
      const counter = countTableWalks(app)
      let transformed = 0
      await app.plugin({
        name: 'late-transform',
        inject: ['tools'],
        apply(ctx: Context) {
          ctx.effect(() =>
            addDefinitionTransform(ctx, {
              name: 'counting',
              transform: () => {
                transformed++
                return undefined
              },
            }),
          )
        },
      })
      expect(transformed).toBe(count)
      expect(counter.walks()).toBe(1)
    }
  })
})

describe('a kept view is never stale: every change DSH makes shows at the next read', () => {
  async function scoped(): Promise<{ app: Runtime & Context; scopes: ScopeModule }> {
    const app = (await dshRuntime()) as unknown as Runtime & Context
    await app.plugin(HardenOverlay)
    await app.plugin(toolPlugin('base', tool('echo', VALID), tool('other', VALID)))
    return { app, scopes: await besideDshTools<ScopeModule>('@deepseek-ai/dsh-scope') }
  }

  async function sent(app: Runtime, agent: object): Promise<string[]> {
    return (await app.systemPrompt.assemble({ scope: agent })).tools.map((schema) => schema.name)
  }

  it('a registration, a scoped registration and an unregistration', async () => {
    const { app, scopes } = await scoped()
    const agent = {}
    const scope = scopes.createScope(app, agent)
    expect(await sent(app, agent)).toEqual(['echo', 'other'])
    const dispose = app.tools.register(tool('late', VALID))
    expect(await sent(app, agent)).toEqual(['echo', 'late', 'other'])
    scope.ctx.get('tools').register(tool('mine', VALID))
    expect(await sent(app, agent)).toEqual(['echo', 'late', 'mine', 'other'])
    dispose()
    expect(await sent(app, agent)).toEqual(['echo', 'mine', 'other'])
  })

  it("a restriction and its removal (a subagent's toolFilter)", async () => {
    const { app, scopes } = await scoped()
    const agent = {}
    const scope = scopes.createScope(app, agent)
    expect(await sent(app, agent)).toEqual(['echo', 'other'])
    const lift = scope.ctx.get('tools').restrict({ deny: ['other'] })
    expect(await sent(app, agent)).toEqual(['echo'])
    expect(app.tools.get('other', agent)).toBeUndefined()
    lift()
    expect(await sent(app, agent)).toEqual(['echo', 'other'])
  })

  it("a scope moved to another parent (dsh-scope's rebind, which DSH does not signal)", async () => {
    const { app, scopes } = await scoped()
    const first = {}
    const second = {}
    scopes.createScope(app, first).ctx.get('tools').register(tool('from_first', VALID))
    scopes.createScope(app, second).ctx.get('tools').register(tool('from_second', VALID))
    const child = {}
    const binding = scopes.bindScopeParent(child, first)
    expect(await sent(app, child)).toEqual(['echo', 'from_first', 'other'])
    binding.rebind(second)
    expect(await sent(app, child)).toEqual(['echo', 'from_second', 'other'])
  })

  it("a scope's presentation (presentAs), which adds Code Mode's run_code to its view", async () => {
    const { app, scopes } = await scoped()
    const agent = {}
    const scope = scopes.createScope(app, agent)
    expect(app.tools.get('run_code', agent)).toBeUndefined()
    const restore = scope.ctx.get('tools').presentAs('code')
    expect(app.tools.get('run_code', agent)).toBeDefined()
    restore()
    expect(app.tools.get('run_code', agent)).toBeUndefined()
  })
})
