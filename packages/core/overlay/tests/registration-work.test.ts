import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { verdictLedgerOf } from '../src/dsh/verdicts.ts'
import { HardenOverlay } from '../src/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

/**
 * `register()` at stock's cost: the overlay's per-tool work (the root contract's check and copy of `parameters`, the
 * verdict, the notice) is counted, not timed, by counting reads of each definition's `parameters`. A registration
 * reads them as often as stock DSH does; the first read of the tool (a listing, `get()`, a call) or of the verdicts
 * judges it, once, however many reads follow.
 */

const RAW = Symbol.for('cordis.original')

/** A definition whose `parameters` count their reads. */
function counted(
  name: string,
  parameters: unknown,
): { definition: Record<string, unknown>; reads(): number } {
  let reads = 0
  const definition = tool(name, parameters)
  Object.defineProperty(definition, 'parameters', {
    enumerable: true,
    get: () => {
      reads++
      return parameters
    },
  })
  return { definition, reads: () => reads }
}

type Runtime = Awaited<ReturnType<typeof dshRuntime>>

async function runtime(config: object | 'stock'): Promise<Runtime> {
  const app = await dshRuntime()
  if (config !== 'stock') await app.plugin(HardenOverlay, config)
  return app
}

/** The reads of `parameters` one registration makes, and those of the first and second listing after it. */
async function readsOf(config: object | 'stock', parameters: unknown) {
  const app = await runtime(config)
  const { definition, reads } = counted('t', parameters)
  await app.plugin(toolPlugin('p', definition))
  const atRegister = reads()
  app.tools.schemas()
  const firstListing = reads() - atRegister
  app.tools.schemas()
  app.tools.get('t')
  return { atRegister, firstListing, later: reads() - atRegister - firstListing }
}

describe('a registration does no per-tool work until the tool is first read', () => {
  for (const config of [{}, { mode: 'repair' }, { route: 'deepseek' }])
    it(`reads parameters at register exactly as often as stock, then judges the tool once (${JSON.stringify(config)})`, async () => {
      const stock = await readsOf('stock', VALID)
      const hardened = await readsOf(config, VALID)
      expect(hardened.atRegister).toBe(stock.atRegister)
      // The overlay's check at the first read: one more than stock's own reads there, and none at any later read.
      expect(hardened.firstListing).toBe(stock.firstListing + 1)
      expect(hardened.later).toBe(stock.later)
    })

  it('still judges at register in throw mode, where the registering plugin must get the error', async () => {
    const app = await runtime({ mode: 'throw' })
    const { definition, reads } = counted('t', BARE_TABLE)
    await expect(Promise.resolve(app.plugin(toolPlugin('p', definition)))).rejects.toMatchObject({
      name: 'JsonSchemaError',
    })
    expect(reads()).toBe(1)
  })

  it('gives the notice and the verdict at the first read of the tools or of the verdicts, whichever comes first', async () => {
    for (const firstRead of ['listing', 'verdicts'] as const) {
      const app = await runtime({})
      const stderr = captureStderr()
      try {
        await app.plugin(toolPlugin('p', tool('bad', BARE_TABLE), tool('good', VALID)))
        expect(stderr.text()).toBe('')
        if (firstRead === 'listing')
          expect(app.tools.schemas().map((schema) => schema.name)).toEqual(['good'])
        const ledger = verdictLedgerOf((app.tools as unknown as Record<symbol, object>)[RAW]!)
        expect(ledger.snapshot().verdicts.map((verdict) => [verdict.identity.tool, verdict.kind])).toEqual([
          ['bad', 'withheld'],
          ['good', 'accepted'],
        ])
        expect(app.tools.schemas().map((schema) => schema.name)).toEqual(['good'])
      } finally {
        stderr.restore()
      }
      expect(stderr.text().match(/tool "bad" from plugin "p" is withheld/g)).toHaveLength(1)
    }
  })

  it('judges a definition registered again, after it was unregistered, as a first registration', async () => {
    const app = await runtime({})
    const ledger = verdictLedgerOf((app.tools as unknown as Record<symbol, object>)[RAW]!)
    const bad = tool('bad', BARE_TABLE)
    const stderr = captureStderr()
    try {
      app.tools.register(bad)()
      expect(ledger.snapshot().verdicts).toEqual([])
      app.tools.register(bad)
      expect(app.tools.get('bad')).toBeUndefined()
      expect(ledger.snapshot().verdicts.map((verdict) => [verdict.identity.tool, verdict.kind])).toEqual([
        ['bad', 'withheld'],
      ])
    } finally {
      stderr.restore()
    }
    expect(stderr.text().match(/tool "bad" is withheld/g)).toHaveLength(1)
  })

  it('judges each of any number of tools once, whatever mix of reads follows their registration', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('schemas', 'get', 'verdicts'), { maxLength: 4 }),
        async (bad, readsAfter) => {
          const app = await runtime({})
          const tools = bad.map((isBad, index) => counted(`t${index}`, isBad ? BARE_TABLE : VALID))
          const stock = tools.map(() => 0)
          await app.plugin(toolPlugin('p', ...tools.map((entry) => entry.definition)))
          expect(tools.map((entry) => entry.reads())).toEqual(stock)
          const raw = (app.tools as unknown as Record<symbol, object>)[RAW]!
          for (const read of readsAfter) {
            if (read === 'schemas') app.tools.schemas()
            else if (read === 'get') for (const index of bad.keys()) app.tools.get(`t${index}`)
            else verdictLedgerOf(raw).snapshot()
          }
          // Stock reads `parameters` once per tool per listing; the overlay adds its one check.
          const listings = readsAfter.filter((read) => read === 'schemas').length
          const judged = readsAfter.length > 0 ? 1 : 0
          for (const [index, entry] of tools.entries()) {
            const shown = bad[index] === false ? listings : 0
            expect(entry.reads(), `t${index}`).toBe(shown + judged)
          }
        },
      ),
      { numRuns: 40 },
    )
  })
})
