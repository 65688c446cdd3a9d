import ToolRuntime from '@deepseek-ai/dsh-tools'
import { JsonSchemaError } from '@dsh-harden/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { installOnToolRuntimePrototype } from '../src/index.ts'
import { BARE_TABLE, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

let uninstall: (() => void) | undefined

afterEach(() => {
  uninstall?.()
  uninstall = undefined
})

describe('installOnToolRuntimePrototype', () => {
  it('guards every ToolRuntime built after it is installed, and names the registering plugin', async () => {
    const original = ToolRuntime.prototype.register
    uninstall = installOnToolRuntimePrototype(ToolRuntime)
    expect(ToolRuntime.prototype.register).not.toBe(original)
    const app = await dshRuntime()
    await expect(
      Promise.resolve(app.plugin(toolPlugin('plug', tool('t', BARE_TABLE)))),
    ).rejects.toMatchObject({
      name: 'JsonSchemaError',
      source: 'plug',
    })
    await app.plugin(toolPlugin('ok', tool('echo', VALID)))
    expect(app.tools.get('echo')?.parameters).toEqual(VALID)
  })

  it('restores the original method', async () => {
    const original = ToolRuntime.prototype.register
    installOnToolRuntimePrototype(ToolRuntime)()
    expect(ToolRuntime.prototype.register).toBe(original)
  })

  it('refuses to install twice, so uninstalling cannot leave a stale guard behind', () => {
    uninstall = installOnToolRuntimePrototype(ToolRuntime)
    expect(() => installOnToolRuntimePrototype(ToolRuntime)).toThrow(/already guarded/)
  })

  it('throws JsonSchemaError from a direct register call on a runtime', async () => {
    uninstall = installOnToolRuntimePrototype(ToolRuntime)
    const app = await dshRuntime()
    expect(() => app.tools.register(tool('t', undefined))).toThrow(JsonSchemaError)
  })
})
