import { describe, expect, it } from 'vitest'
import { installOnToolsService, type RegistrationVerdict } from '../src/index.ts'
import { BARE_TABLE, captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

/** The bare guard's modes, as its README documents them: a refusal is thrown, told, or handed to `onVerdict` alone. */
async function guarded(options: Parameters<typeof installOnToolsService>[1]) {
  const app = await dshRuntime()
  const stderr = captureStderr()
  try {
    const uninstall = installOnToolsService(app, options)
    await app.plugin(toolPlugin('acme', tool('bad', BARE_TABLE), tool('good', VALID)))
    uninstall()
  } finally {
    stderr.restore()
  }
  return { app, stderr: stderr.text() }
}

describe('a bare guard (installOnToolsService, guardRegister)', () => {
  it('in refuse mode leaves the bad tool out and tells stderr which tool, which plugin, where and the fix', async () => {
    const { app, stderr } = await guarded({ mode: 'refuse' })
    expect(app.tools.get('bad')).toBeUndefined()
    expect(app.tools.get('good')).toBeDefined()
    expect(stderr).toMatch(/^dsh-harden: tool "bad" from plugin "acme" is withheld: .*\(root\): .*fix/m)
    expect(stderr.trim().split('\n')).toHaveLength(1)
  })

  it('in collect mode leaves it out as refuse does, says nothing, and hands every verdict to onVerdict', async () => {
    const verdicts: RegistrationVerdict[] = []
    const { app, stderr } = await guarded({ mode: 'collect', onVerdict: (verdict) => verdicts.push(verdict) })
    expect(app.tools.get('bad')).toBeUndefined()
    expect(app.tools.get('good')).toBeDefined()
    expect(stderr).toBe('')
    expect(verdicts.map((verdict) => [verdict.identity.tool, verdict.error?.code ?? null])).toEqual([
      ['bad', 'UNSUPPORTED_SCHEMA'],
      ['good', null],
    ])
  })

  it('refuses collect mode without onVerdict, which would lose every refusal, saying what to pass instead', async () => {
    const app = await dshRuntime()
    expect(() => installOnToolsService(app, { mode: 'collect' })).toThrow(
      /dsh-harden registration guard: mode "collect" hands each verdict to onVerdict, and none was given; pass onVerdict or use mode "refuse"/,
    )
  })
})
