import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay } from '@dsh-harden/overlay'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain-JS fixture without type declarations
import badFirst from './fixtures/bad-first.mjs'

interface ToolsView {
  schemas(): { name: string }[]
}

describe('the bad-first fixture in live DSH, for contrast with lint', () => {
  it('stops at the first failing register under the overlay in throw mode, so no tool survives', async () => {
    const app = new Context()
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
    await app.plugin(HardenOverlay, { mode: 'throw' })
    await expect(app.plugin(badFirst)).rejects.toMatchObject({ name: 'JsonSchemaError', tool: 'broken_root' })
    expect((app as unknown as { tools: ToolsView }).tools.schemas()).toEqual([])
  })
})
