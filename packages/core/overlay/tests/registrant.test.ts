import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { packageOfSpecifier } from '../src/dsh/plugin-package.ts'
import { type Registration, registrationOf } from '../src/dsh/registrant.ts'
import { dshRuntime } from './fixtures.ts'

interface Seen {
  readonly ctx: unknown
  readonly fiber: unknown
  readonly registration: Registration
}

/**
 * Mounts a method on the raw tools instance that reports what a call sees as `this`, as the overlay's `register`
 * wrapper sees it, and calls it twice from inside a plugin through cordis' real proxies.
 */
async function callTwiceFromPlugin(app: Context, name: string): Promise<Seen[]> {
  const raw = (app as unknown as { tools: Record<symbol, Record<string, unknown>> }).tools[
    Symbol.for('cordis.original')
  ]!
  raw.observe = function observe(this: { ctx: { fiber: unknown } }): Seen[] {
    return [{ ctx: this.ctx, fiber: this.ctx.fiber, registration: registrationOf(this) }]
  }
  const seen: Seen[] = []
  await app.plugin({
    name,
    inject: ['tools'],
    apply(ctx: Context) {
      const tools = ctx.tools as unknown as { observe(): Seen[] }
      seen.push(...tools.observe(), ...tools.observe())
    },
  })
  return seen
}

describe('the registering plugin', () => {
  it('is read once per plugin, though cordis hands each call a fresh context', async () => {
    const app = await dshRuntime()
    const [first, second] = await callTwiceFromPlugin(app, 'acme-tools')
    // The premise: a context cannot key the record, its fiber can.
    expect(first!.ctx).not.toBe(second!.ctx)
    expect(first!.fiber).toBe(second!.fiber)
    expect(first!.registration).toEqual({ source: 'acme-tools' })
    expect(second!.registration).toBe(first!.registration)
  })

  it('is told apart per plugin, and a call from the root context has no source', async () => {
    const app = await dshRuntime()
    const [acme] = await callTwiceFromPlugin(app, 'acme-tools')
    const [other] = await callTwiceFromPlugin(app, 'other-tools')
    expect(acme!.registration.source).toBe('acme-tools')
    expect(other!.registration.source).toBe('other-tools')
    expect(registrationOf({ ctx: app }).source).toBeUndefined()
  })

  it('has no source when the receiver carries no readable context', () => {
    const throwing = {
      get ctx(): never {
        throw new Error('revoked')
      },
    }
    for (const receiver of [undefined, null, {}, { ctx: 1 }, { ctx: { fiber: null } }, throwing])
      expect(registrationOf(receiver)).toEqual({ source: undefined })
  })
})

describe('the loader row a plugin was started from', () => {
  const fiberOf = (name: string, specifier?: unknown) => ({
    ctx: { fiber: { name, ...(specifier === undefined ? {} : { entry: { options: { name: specifier } } }) } },
  })

  it("is kept as the row's module specifier, for notices to name the package it is in", () => {
    expect(registrationOf(fiberOf('acme-tools', '@acme/dsh-tools/plugin'))).toEqual({
      source: 'acme-tools',
      row: '@acme/dsh-tools/plugin',
    })
    expect(packageOfSpecifier('@acme/dsh-tools/plugin')).toBe('@acme/dsh-tools')
    // A path inside this repository: its nearest package.json names the package.
    expect(packageOfSpecifier(new URL('../src/plugin.ts', import.meta.url).pathname)).toBe(
      '@dsh-harden/overlay',
    )
    expect(packageOfSpecifier('./plugin.mjs')).toBeUndefined()
  })

  it('is left out when no row started the plugin', () => {
    expect(registrationOf(fiberOf('hand-mounted'))).toEqual({ source: 'hand-mounted' })
  })
})
