import type { Context } from '@deepseek-ai/cordis'
import { createToolContract } from '@dsh-harden/tools'
import { describe, expect, it, vi } from 'vitest'
import {
  addDefinitionTransform,
  type DefinitionTransform,
  HardenOverlay,
  type Registration,
  SourceRecorder,
} from '../src/index.ts'
import { captureStderr, dshRuntime, tool, toolPlugin, VALID, wireParameters } from './fixtures.ts'

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

/**
 * Calls `echo` with `{ text, note }` and counts the contract validations of that one call (every compiled contract
 * shares the prototype whose `validate` is spied on): one contract per tool means exactly one.
 */
async function callEchoCountingDecodes(
  app: Context,
): Promise<{ isError: boolean | undefined; decodes: number }> {
  const prototype = Object.getPrototypeOf(createToolContract(VALID, { tool: 'probe', source: undefined }))
  const decodes = vi.spyOn(prototype, 'validate')
  try {
    const result = await (
      app.tools as unknown as { execute(input: object): Promise<{ isError?: boolean }> }
    ).execute({
      signal: new AbortController().signal,
      callId: 'c1',
      name: 'echo',
      arguments: { text: 'a', note: 'b' },
    })
    return { isError: result.isError, decodes: decodes.mock.calls.length }
  } finally {
    decodes.mockRestore()
  }
}

describe('definition transforms (the extension point tool packages use)', () => {
  for (const order of ['overlay first', 'transform first'] as const) {
    it(`runs once, before the overlay's contract and projection, with the ${order}`, async () => {
      const app = await dshRuntime()
      const seen: unknown[] = []
      if (order === 'overlay first') await app.plugin(HardenOverlay, { route: 'gemini' })
      await app.plugin(transformPlugin(widening(seen)))
      if (order === 'transform first') await app.plugin(HardenOverlay, { route: 'gemini' })
      await app.plugin(toolPlugin('good', tool('echo', VALID), tool('other', VALID)))
      // A changed definition is marked, so the second registration path does not transform it again.
      expect(seen.filter((d) => (d as { name: string }).name === 'echo')).toHaveLength(1)
      // Gemini writes a null type as `nullable: true`: the projection ran on the transformed schema.
      expect(await wireParameters(app, 'echo')).toMatchObject({
        properties: { note: { type: 'string', nullable: true } },
      })
      expect(await wireParameters(app, 'other')).toEqual(VALID)
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

  describe('a tool registered before the transform was added (DSH mounts its own tools early)', () => {
    /** Widens `echo` only when it comes from plugin `good`, and records what it was told. */
    function fromGood(seen: [string, Registration][]): DefinitionTransform {
      return {
        name: 'test-from-good',
        transform(definition, registration) {
          seen.push([definition.name as string, registration])
          if (definition.name !== 'echo' || registration.source !== 'good') return undefined
          return { ...definition, parameters: NULLABLE }
        },
      }
    }

    for (const overlay of ['no overlay', 'overlay first', 'overlay last'] as const) {
      it(`gets the transform at once, told its plugin, and is restored exactly on dispose (${overlay})`, async () => {
        const app = await dshRuntime()
        await app.plugin(SourceRecorder)
        if (overlay === 'overlay first') await app.plugin(HardenOverlay, { route: 'gemini' })
        const echo = tool('echo', VALID)
        await app.plugin(toolPlugin('good', echo, tool('other', VALID)))
        if (overlay === 'overlay last') await app.plugin(HardenOverlay, { route: 'gemini' })
        const seen: [string, Registration][] = []
        const added = app.plugin(transformPlugin(fromGood(seen)))
        await added
        expect(seen).toContainEqual(['echo', { source: 'good' }])
        const expected = overlay === 'no overlay' ? NULLABLE : { properties: { note: { nullable: true } } }
        // What DSH's table holds is the transformed definition; the route's wire form is made where it assembles.
        expect(app.tools.get('echo')?.parameters).toEqual(NULLABLE)
        expect(app.tools.schemas().find((s) => s.name === 'echo')?.parameters).toEqual(NULLABLE)
        expect(await wireParameters(app, 'echo')).toMatchObject(expected)
        await added.dispose()
        // Disposed, the tool is the very definition its plugin registered again, with or without the overlay.
        expect(app.tools.get('echo')).toBe(echo)
        expect(await wireParameters(app, 'echo')).not.toMatchObject(expected)
        // Still a normal registration: it goes away with the plugin that registered it.
        expect(app.tools.get('other')?.parameters).toEqual(VALID)
      })
    }

    it('leaves a same-named tool of another plugin alone, and keeps one transform when another is removed', async () => {
      const app = await dshRuntime()
      await app.plugin(SourceRecorder)
      await app.plugin(toolPlugin('third-party', tool('echo', VALID)))
      const seen: [string, Registration][] = []
      await app.plugin(transformPlugin(fromGood(seen)))
      expect(seen).toEqual([['echo', { source: 'third-party' }]])
      expect(app.tools.get('echo')?.parameters).toBe(VALID)

      const other = await dshRuntime()
      await other.plugin(SourceRecorder)
      const registered = other.plugin(toolPlugin('good', tool('echo', VALID)))
      await registered
      await other.plugin(transformPlugin(widening([])))
      const second = other.plugin(transformPlugin(fromGood([])))
      await second
      await second.dispose()
      // `widening` changed it too: it stays widened after `fromGood` is gone.
      expect(other.tools.get('echo')?.parameters).toBe(NULLABLE)
      await registered.dispose()
      expect(other.tools.get('echo')).toBeUndefined()
    })

    it('without a recorder, says the plugin is unrecorded instead of guessing', async () => {
      const app = await dshRuntime()
      await app.plugin(toolPlugin('good', tool('echo', VALID)))
      const seen: [string, Registration][] = []
      await app.plugin(transformPlugin(fromGood(seen)))
      expect(seen).toEqual([['echo', { source: undefined, unrecorded: true }]])
      expect(app.tools.get('echo')?.parameters).toBe(VALID)
    })
  })

  it('says once on stderr when the registry is not the rc.8 shape, for the transform and the overlay together', async () => {
    const app = await dshRuntime()
    const raw = (app.tools as unknown as Record<symbol, Record<string, unknown>>)[RAW]!
    const layers = raw.layers
    raw.layers = {}
    const stderr = captureStderr()
    try {
      await app.plugin(transformPlugin(widening([])))
      await app.plugin(HardenOverlay)
    } finally {
      stderr.restore()
      raw.layers = layers
    }
    const lines = stderr.text().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^dsh-harden: this DSH tool registry is not the rc\.8 shape .* Pin @deepseek-ai\/dsh-tools/,
    )
  })

  describe('one contract per tool at any time', () => {
    const CLOSED = {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    }
    const withNote: DefinitionTransform = {
      name: 'test-with-note',
      transform: (definition) =>
        definition.name === 'echo'
          ? {
              ...definition,
              parameters: { ...CLOSED, properties: { ...CLOSED.properties, note: { type: 'string' } } },
            }
          : undefined,
    }

    for (const order of ['overlay first', 'overlay last'] as const) {
      it(`a transform added after the tool was bound rebinds it once, to the new schema (${order})`, async () => {
        const app = await dshRuntime()
        const config = { route: 'deepseek', validateArguments: true } as const
        if (order === 'overlay first') await app.plugin(HardenOverlay, config)
        const received: unknown[] = []
        const echo = tool('echo', CLOSED)
        echo.execute = async (args: unknown) => {
          received.push(args)
          return 'ok'
        }
        await app.plugin(toolPlugin('good', echo))
        if (order === 'overlay last') await app.plugin(HardenOverlay, config)
        await app.plugin(transformPlugin(withNote))
        // With validateArguments, a call is validated once, by the contract compiled for the transformed schema.
        expect(await callEchoCountingDecodes(app)).toEqual({ isError: false, decodes: 1 })
        expect(received).toEqual([{ text: 'a', note: 'b' }])
        expect(await wireParameters(app, 'echo')).toMatchObject({ properties: { note: { type: 'string' } } })
      })
    }

    it('an overlay restarted over tools an earlier one bound (a config reload) binds each once, from what was registered', async () => {
      const app = await dshRuntime()
      const config = { route: 'gemini', validateArguments: true } as const
      const first = app.plugin(HardenOverlay, config)
      await first
      await app.plugin(transformPlugin(withNote))
      const echo = tool('echo', CLOSED)
      await app.plugin(toolPlugin('good', echo))
      const sentBefore = await wireParameters(app, 'echo')
      await first.dispose()
      await app.plugin(HardenOverlay, config)
      // The same wire schema as before the reload: projected once from the declared one, not from the wire.
      expect(await wireParameters(app, 'echo')).toEqual(sentBefore)
      expect(await callEchoCountingDecodes(app)).toEqual({ isError: false, decodes: 1 })
    })
  })
})
