import { describe, expect, it } from 'vitest'
import { rawTools } from '../src/dsh/registry.ts'
import { verdictLedgerOf } from '../src/dsh/verdicts.ts'
import { HardenOverlay } from '../src/index.ts'
import { BARE_TABLE, besideDshTools, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

interface ScopeModule {
  createScope(
    ctx: object,
    key: object,
  ): { ctx: { get(name: 'tools'): { register(definition: unknown): () => void } }; dispose(): Promise<void> }
}

/** A real DSH registry with the overlay, and the ledger the Web panel and `dsh-harden lint` read. */
async function session() {
  const app = await dshRuntime()
  await app.plugin(HardenOverlay)
  const ledger = verdictLedgerOf(rawTools(app))
  const listed = () =>
    ledger
      .snapshot()
      .verdicts.map((verdict) => `${verdict.identity.source}/${verdict.identity.tool}:${verdict.kind}`)
  return { app, ledger, listed }
}

describe('the verdict ledger follows unregister', () => {
  it("a disposed plugin's tools, accepted and withheld, drop out; another plugin's stay", async () => {
    const { app, ledger, listed } = await session()
    const leaving = app.plugin(toolPlugin('leaving', tool('kept_a', VALID), tool('bare', BARE_TABLE)))
    await leaving
    await app.plugin(toolPlugin('staying', tool('kept_b', VALID)))
    expect(listed()).toEqual(['leaving/kept_a:accepted', 'leaving/bare:withheld', 'staying/kept_b:accepted'])
    const before = ledger.revision
    await leaving.dispose()
    expect(listed()).toEqual(['staying/kept_b:accepted'])
    // A reader's cached view (the panel's ETag) is stale once a tool left.
    expect(ledger.revision).toBeGreaterThan(before)
  })

  it('a tool registered again after its plugin left is listed once, with its new verdict', async () => {
    const { app, listed } = await session()
    const first = app.plugin(toolPlugin('reloading', tool('t', BARE_TABLE)))
    await first
    await first.dispose()
    await app.plugin(toolPlugin('reloading', tool('t', VALID)))
    expect(listed()).toEqual(['reloading/t:accepted'])
  })

  it('after 1,000 register / unregister cycles the ledger holds only the tools still registered', async () => {
    const { app, listed } = await session()
    await app.plugin(toolPlugin('resident', tool('resident', VALID)))
    for (let index = 0; index < 1_000; index++) {
      const fiber = app.plugin(toolPlugin(`plugin-${index}`, tool(`tool_${index}`, VALID)))
      await fiber
      await fiber.dispose()
    }
    expect(listed()).toEqual(['resident/resident:accepted'])
  })

  it("a disposed agent scope's tools drop out; the global ones stay", async () => {
    const { createScope } = await besideDshTools<ScopeModule>('@deepseek-ai/dsh-scope')
    const { app, listed } = await session()
    await app.plugin(toolPlugin('global', tool('everywhere', VALID)))
    const scope = createScope(app, {})
    scope.ctx.get('tools').register(tool('scoped_ok', VALID))
    scope.ctx.get('tools').register(tool('scoped_bare', BARE_TABLE))
    expect(listed()).toHaveLength(3)
    await scope.dispose()
    expect(listed()).toEqual(['global/everywhere:accepted'])
  })
})
