import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { addDefinitionTransform, type DefinitionTransform, HardenOverlay } from '../src/index.ts'
import { dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

const RAW = Symbol.for('cordis.original')
const NULLABLE = {
  type: 'object',
  properties: { text: { type: 'string' }, note: { type: ['string', 'null'] } },
  required: ['text'],
}

/** A transform that widens `echo`'s schema and records each definition it saw. */
function widening(seen: unknown[]): DefinitionTransform {
  return {
    name: 'test-widening',
    transform(definition) {
      seen.push(definition)
      return definition.name === 'echo' ? { ...definition, parameters: NULLABLE } : undefined
    },
  }
}

function transformPlugin(transform: DefinitionTransform) {
  return {
    name: 'transform-plugin',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.effect(() => addDefinitionTransform(ctx, transform))
    },
  }
}

describe('definition transforms (the extension point tool packages use)', () => {
  for (const order of ['overlay first', 'transform first'] as const) {
    it(`runs once, before the overlay's contract and projection, with the ${order}`, async () => {
      const app = await dshRuntime()
      const seen: unknown[] = []
      if (order === 'overlay first') await app.plugin(HardenOverlay, { profile: 'gemini' })
      await app.plugin(transformPlugin(widening(seen)))
      if (order === 'transform first') await app.plugin(HardenOverlay, { profile: 'gemini' })
      await app.plugin(toolPlugin('good', tool('echo', VALID), tool('other', VALID)))
      // A changed definition is marked, so the second registration path does not transform it again.
      expect(seen.filter((d) => (d as { name: string }).name === 'echo')).toHaveLength(1)
      // Gemini writes a null type as `nullable: true`: the projection ran on the transformed schema.
      expect(app.tools.get('echo')?.parameters).toMatchObject({
        properties: { note: { type: 'string', nullable: true } },
      })
      expect(app.tools.get('other')?.parameters).toEqual(VALID)
    })
  }

  for (const order of ['overlay first', 'transform first', 'no overlay'] as const) {
    it(`tells each transform which plugin registers the tool, with the ${order}`, async () => {
      const app = await dshRuntime()
      const seen: [string, string | undefined][] = []
      const recording: DefinitionTransform = {
        name: 'test-recording',
        transform(definition, registration) {
          seen.push([definition.name as string, registration.source])
          return undefined
        },
      }
      if (order === 'overlay first') await app.plugin(HardenOverlay)
      await app.plugin(transformPlugin(recording))
      if (order === 'transform first') await app.plugin(HardenOverlay)
      await app.plugin(toolPlugin('tool-bash', tool('bash', VALID)))
      await app.plugin(toolPlugin('third-party', tool('echo', VALID)))
      // Registered from the root context: no plugin on the stack.
      app.tools.register(tool('rooted', VALID))
      expect(seen).toEqual([
        ['bash', 'tool-bash'],
        ['echo', 'third-party'],
        ['rooted', undefined],
      ])
    })
  }

  it('works without the overlay, and leaves other tools as the very same definition', async () => {
    const app = await dshRuntime()
    await app.plugin(transformPlugin(widening([])))
    const other = tool('other', VALID)
    await app.plugin(toolPlugin('good', tool('echo', VALID), other))
    expect(app.tools.get('echo')?.parameters).toBe(NULLABLE)
    expect(app.tools.get('other')).toBe(other)
  })

  it('removes its register stage with the last transform, and never cuts a later wrapper out', async () => {
    const app = await dshRuntime()
    const transform = app.plugin(transformPlugin(widening([])))
    await transform
    const overlay = app.plugin(HardenOverlay, { mode: 'throw' })
    await overlay
    await transform.dispose()
    // The overlay sits on top of the (now pass-through) stage and still guards.
    await expect(
      Promise.resolve(app.plugin(toolPlugin('bad', tool('x', { images: { type: 'string' } })))),
    ).rejects.toMatchObject({ name: 'JsonSchemaError' })
    await overlay.dispose()
    await app.plugin(toolPlugin('good', tool('echo', VALID)))
    // The stage that was buried under the overlay stays behind as a pass-through: stock behaviour again.
    expect(app.tools.get('echo')?.parameters).toBe(VALID)
  })

  it('restores the stock register when the last transform goes and nothing was installed above it', async () => {
    const app = await dshRuntime()
    const raw = (app.tools as unknown as Record<symbol, object>)[RAW]!
    const transform = app.plugin(transformPlugin(widening([])))
    await transform
    expect(Object.hasOwn(raw, 'register')).toBe(true)
    await transform.dispose()
    expect(Object.hasOwn(raw, 'register')).toBe(false)
  })

  it('an overlay disposed under a stage becomes a pass-through instead of unhooking the stage', async () => {
    const app = await dshRuntime()
    const overlay = app.plugin(HardenOverlay)
    await overlay
    await app.plugin(transformPlugin(widening([])))
    await overlay.dispose()
    await app.plugin(toolPlugin('p', tool('echo', VALID), tool('bad', { images: { type: 'string' } })))
    expect(app.tools.get('echo')?.parameters).toBe(NULLABLE)
    expect(app.tools.get('bad')).toBeDefined()
  })
})
