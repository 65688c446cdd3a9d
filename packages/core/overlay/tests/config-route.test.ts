import { describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import { ANY_SLOT, captureStderr, dshRuntime, tool, toolPlugin, wireParameters } from './fixtures.ts'

/**
 * The overlay's `route` option names the model route to send wire schemas for. Its old name, `profile` (which in DSH
 * means the profile directory a session runs in), still works and is told once per process.
 */
async function sent(config: object) {
  const app = await dshRuntime()
  const stderr = captureStderr()
  try {
    await app.plugin(HardenOverlay, config)
    await app.plugin(toolPlugin('p', tool('any_json', ANY_SLOT)))
    return { wire: await wireParameters(app, 'any_json'), stderr: stderr.text() }
  } finally {
    stderr.restore()
  }
}

const ANY_AS_TEXT = { type: 'string' }

describe('the route option', () => {
  it('sends the wire schemas of the configured route, with no route found on the request', async () => {
    const { wire, stderr } = await sent({ route: 'deepseek' })
    expect((wire as { properties: { input: unknown } }).properties.input).toMatchObject(ANY_AS_TEXT)
    expect(stderr).toBe('')
  })

  it('still reads the old name `profile`, telling once per process to rename it', async () => {
    const first = await sent({ profile: 'deepseek' })
    expect((first.wire as { properties: { input: unknown } }).properties.input).toMatchObject(ANY_AS_TEXT)
    expect(first.stderr.trim().split('\n')).toEqual([
      'dsh-harden: the overlay option "profile" is now called "route" (in DSH a profile is the directory a session runs in); rename profile: deepseek to route: deepseek. The old name still works.',
    ])
    expect((await sent({ profile: 'deepseek' })).stderr).toBe('')
  })

  it('fails the overlay at load when route and its old name disagree, or name no route, saying which key to fix', async () => {
    const app = await dshRuntime()
    await expect(
      Promise.resolve(app.plugin(HardenOverlay, { route: 'deepseek', profile: 'anthropic' })),
    ).rejects.toThrow(
      /dsh-harden overlay config: route "deepseek" and its old name profile "anthropic" disagree; keep route only; fix the dsh-harden row in cordis.patch.yml/,
    )
    await expect(Promise.resolve(app.plugin(HardenOverlay, { route: 'claude' }))).rejects.toThrow(
      /dsh-harden overlay config: route "claude" is not one of deepseek, .*; fix the dsh-harden row/,
    )
  })
})
