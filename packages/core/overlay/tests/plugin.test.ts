import { JsonSchemaError } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { HardenOverlay, installOnToolsService, type RegistrationVerdict } from '../src/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

const RAW = Symbol.for('cordis.original')

describe('HardenOverlay on a live DSH tools service', () => {
  it('fails a plugin at load with a JsonSchemaError naming the tool and the plugin in throw mode', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay, { mode: 'throw' })
    const error = await Promise.resolve(
      app.plugin(toolPlugin('dsh-image-vision', tool('vision_query', BARE_TABLE))),
    ).catch((e) => e)
    expect(error).toBeInstanceOf(JsonSchemaError)
    expect(error.code).toBe('UNSUPPORTED_SCHEMA')
    expect(error.tool).toBe('vision_query')
    expect(error.source).toBe('dsh-image-vision')
    expect(error.message).toContain('"vision_query" from "dsh-image-vision"')
    expect(error.details[0]).toMatchObject({ pointer: '', rule: 'bare-property-table' })
    expect(app.tools.get('vision_query')).toBeUndefined()
  })

  it('registers a valid tool with its parameters as declared', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay)
    await app.plugin(toolPlugin('good', tool('echo', VALID)))
    // Equal, not identical: the contract detaches what it checked, so a plugin mutating its object later changes nothing.
    expect(app.tools.get('echo')?.parameters).toEqual(VALID)
    expect(JSON.stringify(app.tools.schemas()[0]?.parameters)).toBe(JSON.stringify(VALID))
  })

  it('keeps each registration owned by the plugin that made it', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay)
    const fiber = app.plugin(toolPlugin('good', tool('echo', VALID)))
    await fiber
    expect(app.tools.get('echo')).toBeDefined()
    await fiber.dispose()
    expect(app.tools.get('echo')).toBeUndefined()
  })

  it('restores the original register when the overlay is disposed', async () => {
    const app = await dshRuntime()
    const raw = (app.tools as unknown as Record<symbol, object>)[RAW]!
    const overlay = app.plugin(HardenOverlay)
    await overlay
    expect(Object.hasOwn(raw, 'register')).toBe(true)
    await overlay.dispose()
    expect(Object.hasOwn(raw, 'register')).toBe(false)
    // Stock DSH again: the bare table registers without complaint.
    await app.plugin(toolPlugin('bad', tool('vision_query', BARE_TABLE)))
    expect(app.tools.get('vision_query')).toBeDefined()
  })

  it('guards plugins that wait for the tools service when the overlay row comes first', async () => {
    const { Context } = await import('@deepseek-ai/cordis')
    const SystemPrompt = (await import('@deepseek-ai/dsh-system-prompt')).default
    const ToolRuntime = (await import('@deepseek-ai/dsh-tools')).default
    const app = new Context()
    app.plugin(HardenOverlay, { mode: 'throw' })
    const pending = app.plugin(toolPlugin('third-party', tool('x', BARE_TABLE)))
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
    await expect(Promise.resolve(pending)).rejects.toBeInstanceOf(JsonSchemaError)
  })

  it('repairs an unambiguous bare table in repair mode and registers the wrapped schema', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay, { mode: 'repair' })
    await app.plugin(toolPlugin('dsh-image-vision', tool('vision_query', BARE_TABLE)))
    expect(app.tools.get('vision_query')?.parameters).toEqual({ type: 'object', properties: BARE_TABLE })
  })

  it('refuses, without throwing, in repair mode when the mistake has more than one meaning', async () => {
    const app = await dshRuntime()
    const lines = captureStderr()
    await app.plugin(HardenOverlay, { mode: 'repair' })
    await app.plugin(toolPlugin('p', tool('t', { type: ['object', 'null'] }), tool('ok', VALID)))
    expect(app.tools.get('t')).toBeUndefined()
    expect(app.tools.get('ok')).toBeDefined()
    lines.restore()
    expect(lines.text()).toMatch(/tool "t" from plugin "p" is withheld/)
  })

  it('rejects an unknown mode with a message that lists the valid ones', async () => {
    const app = await dshRuntime()
    await expect(Promise.resolve(app.plugin(HardenOverlay, { mode: 'loose' as never }))).rejects.toThrow(
      /refuse, repair, throw;/,
    )
  })

  it('turns a parameters getter that throws into a JsonSchemaError, not a bare TypeError', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay, { mode: 'throw' })
    const definition = tool('t', VALID)
    Object.defineProperty(definition, 'parameters', {
      get() {
        throw new TypeError('nope')
      },
    })
    await expect(Promise.resolve(app.plugin(toolPlugin('p', definition)))).rejects.toMatchObject({
      name: 'JsonSchemaError',
      details: [{ rule: 'unreadable' }],
    })
  })
})

describe('collect mode', () => {
  it('reports every registration and never throws, leaving failing tools unregistered', async () => {
    const app = await dshRuntime()
    const verdicts: RegistrationVerdict[] = []
    const uninstall = installOnToolsService(app, { mode: 'collect', onVerdict: (v) => verdicts.push(v) })
    await app.plugin(toolPlugin('mixed', tool('bad', BARE_TABLE), tool('good', VALID)))
    uninstall()
    expect(verdicts.map((v) => [v.identity.tool, v.identity.source, v.error === null])).toEqual([
      ['bad', 'mixed', false],
      ['good', 'mixed', true],
    ])
    expect(app.tools.get('bad')).toBeUndefined()
    expect(app.tools.get('good')).toBeDefined()
  })
})

describe('precedence of DSH’s own checks', () => {
  it('leaves a definition without output to DSH’s own error, exactly as stock DSH reports it', async () => {
    const app = await dshRuntime()
    await app.plugin(HardenOverlay)
    const { output: _output, ...withoutOutput } = tool('legacy', {})
    expect(() => app.tools.register(withoutOutput)).toThrow(
      /must declare output \{ schema, render, presentationMeta\? \}/,
    )
  })
})
