import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rawTools } from '../src/dsh/registry.ts'
import { verdictLedgerOf } from '../src/dsh/verdicts.ts'
import { HardenOverlay } from '../src/index.ts'
import { contractsView } from '../src/web/index.ts'
import { captureStderr, dshRuntime, tool, toolPlugin } from './fixtures.ts'

/**
 * A plugin author pastes a secret into a schema (an `enum` of API keys, a `default` token, a `$ref` URL with a
 * password): the panel's view must never carry it. Each schema below breaks a rule with the secret in the very value
 * the rule is about (the overlay refuses it), and carries it in decorations besides; the view of the real overlay's
 * verdicts, as the endpoint serializes it, must not contain it anywhere.
 */
const secret = fc.stringMatching(/^[A-Za-z0-9]{6,24}$/).map((s) => `sk-live-${s}`)

const broken: ((value: string) => unknown)[] = [
  (value) => ({ type: value }),
  (value) => ({ type: 'object', properties: { a: { type: value } } }),
  (value) => ({ type: 'object', properties: { a: { type: 'string', enum: value } } }),
  (value) => ({ type: 'object', properties: { a: { type: 'string', minLength: value } } }),
  (value) => ({ type: 'object', properties: { a: { $ref: `#/$defs/${value}` } } }),
  (value) => ({
    type: 'object',
    properties: { a: { $ref: `https://user:${value}@schemas.example/a.json` } },
  }),
  (value) => ({ type: 'object', properties: { a: value } }),
  (value) => ({ type: 'object', properties: {}, required: [value] }),
  (value) => ({ type: 'object', properties: { a: { type: 'string', enum: [value, value] } } }),
  (value) => ({ type: 'object', properties: { a: { type: 'string', enum: [] } }, default: value }),
  (value) => ({ type: 'object', properties: { a: { type: 'string', pattern: `(${value}` } } }),
]

/** Where else a secret sits in a schema: annotations and defaults that no rule is about. */
function decorate(schema: unknown, value: string, where: number): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema
  const decorations = [
    { description: value },
    { title: value },
    { default: value },
    { examples: [value] },
    {},
  ]
  return { ...schema, ...decorations[where % decorations.length] }
}

describe('the view of withheld tools', () => {
  it('never contains a string value from the schema, only names, pointers and rules', async () => {
    await fc.assert(
      fc.asyncProperty(
        secret,
        fc.array(fc.tuple(fc.nat({ max: broken.length - 1 }), fc.nat()), { minLength: 1, maxLength: 4 }),
        async (value, picks) => {
          const app = await dshRuntime()
          await app.plugin(HardenOverlay)
          const tools = picks.map(([shape, where], index) =>
            tool(`leaky_${index}`, decorate(broken[shape]!(value), value, where)),
          )
          const stderr = captureStderr()
          try {
            await app.plugin(toolPlugin('acme-secrets', ...tools))
          } finally {
            stderr.restore()
          }
          const view = contractsView(verdictLedgerOf(rawTools(app)).snapshot(), 'r')
          expect(view.counts.withheld).toBe(tools.length)
          expect(JSON.stringify(view)).not.toContain(value)
        },
      ),
      { numRuns: 60 },
    )
  })
})
