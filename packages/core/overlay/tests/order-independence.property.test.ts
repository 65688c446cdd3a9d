import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import { BARE_TABLE, besideDshTools, captureStderr, tool, VALID } from './fixtures.ts'

/**
 * For any mix of good and bad tools, any point at which the overlay starts among their registrations, any `toolOrder`
 * and any subagent `toolFilter` over their names: what DSH assembles equals what stock DSH assembles with only the
 * good tools registered and the names filtered to them. Nothing throws on a bad tool's name.
 */

const REQUIRED_TRUE = { type: 'object', properties: { q: { type: 'string', required: true } } }

interface Runtime {
  tools: { register(definition: object): () => void }
  systemPrompt: { assemble(context: object): Promise<{ tools: unknown[] }> }
}

interface ScopeModule {
  createScope(
    ctx: object,
    key: object,
  ): { ctx: { get(name: 'tools'): { restrict(filter: object): () => void } } }
}

const scenario = fc
  .array(fc.constantFrom('good', 'bare', 'required-true'), { minLength: 1, maxLength: 6 })
  .chain((kinds) =>
    fc.record({
      kinds: fc.constant(kinds),
      overlayAfter: fc.integer({ min: 0, max: kinds.length }),
      order: fc.option(fc.shuffledSubarray(kinds.map((_, index) => `t${index}`))),
      allow: fc.option(fc.subarray(kinds.map((_, index) => `t${index}`))),
    }),
  )

function definitionOf(kind: string, index: number): Record<string, unknown> {
  return tool(`t${index}`, kind === 'good' ? VALID : kind === 'bare' ? BARE_TABLE : REQUIRED_TRUE)
}

async function runtime(toolOrder: string[] | null): Promise<Context & Runtime> {
  const app = new Context()
  await app.plugin(SystemPrompt, toolOrder === null ? {} : { toolOrder: [...toolOrder, '<unlisted-tools>'] })
  await app.plugin(ToolRuntime)
  return app as Context & Runtime
}

/** The tools assembled globally and for a child scope restricted to `allow` (when given). */
async function assembled(app: Context & Runtime, scopes: ScopeModule, allow: string[] | null) {
  const child = {}
  if (allow !== null) scopes.createScope(app, child).ctx.get('tools').restrict({ allow })
  return {
    global: (await app.systemPrompt.assemble({})).tools,
    child: (await app.systemPrompt.assemble({ scope: child })).tools,
  }
}

describe('the overlay in any load order equals stock DSH with only the good tools', () => {
  it('for the prompt, a toolOrder and a subagent toolFilter over every name', async () => {
    const scopes = await besideDshTools<ScopeModule>('@deepseek-ai/dsh-scope')
    await fc.assert(
      fc.asyncProperty(scenario, async ({ kinds, overlayAfter, order, allow }) => {
        const stderr = captureStderr()
        try {
          const app = await runtime(order)
          for (const [index, kind] of kinds.entries()) {
            if (index === overlayAfter) await app.plugin(HardenOverlay)
            app.tools.register(definitionOf(kind, index))
          }
          if (overlayAfter === kinds.length) await app.plugin(HardenOverlay)

          const good = (name: string) => kinds[Number(name.slice(1))] === 'good'
          const stock = await runtime(order === null ? null : order.filter(good))
          for (const [index, kind] of kinds.entries())
            if (kind === 'good') stock.tools.register(definitionOf(kind, index))

          const expected = await assembled(stock, scopes, allow === null ? null : allow.filter(good))
          expect(await assembled(app, scopes, allow)).toEqual(expected)
        } finally {
          stderr.restore()
        }
      }),
      { numRuns: 40 },
    )
  })
})
