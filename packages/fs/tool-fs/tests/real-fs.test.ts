import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SandboxedFileSystem from '@deepseek-ai/dsh-fs-sandbox'
import SandboxPolicyService from '@deepseek-ai/dsh-sandbox-policy'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as DshToolFs from '@deepseek-ai/dsh-tool-fs'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay } from '@dsh-harden/overlay'
import { afterEach, describe, expect, it } from 'vitest'
import HardenToolFs from '../src/index.ts'

/**
 * The plugin in a real DSH composition: the real ToolRuntime, the real in-process sandboxed filesystem
 * (`dsh-fs-sandbox`, no kernel support needed) and DSH's real tool-fs, executed through `tools.execute` without an
 * agent — placeholders need no approval, so no turn is needed. Approval paths run through the agent loop in regress.
 */
interface Tools {
  execute(input: unknown): Promise<{ isError?: boolean; content: { text: string }[] }>
  get(name: string): { parameters: unknown } | undefined
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function compose(
  mode: 'read-only' | 'workspace-write',
  options: { hardened: boolean; overlayFirst?: boolean },
) {
  const workspace = mkdtempSync(join(tmpdir(), 'dsh-harden-fs-'))
  dirs.push(workspace)
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  await app.plugin(SandboxPolicyService, { mode, workspaceRoot: workspace })
  await app.plugin(SandboxedFileSystem)
  if (options.hardened && options.overlayFirst) await app.plugin(HardenOverlay, { profile: 'deepseek' })
  if (options.hardened) await app.plugin(HardenToolFs)
  if (options.hardened && options.overlayFirst === false)
    await app.plugin(HardenOverlay, { profile: 'deepseek' })
  await app.plugin(DshToolFs)
  const tools = (app as unknown as { tools: Tools }).tools
  const write = (args: Record<string, unknown>) =>
    tools.execute({ callId: 'c1', name: 'write', arguments: args, signal: new AbortController().signal })
  return { tools, write, workspace }
}

const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }

describe("@dsh-harden/tool-fs over DSH's real tool-fs and dsh-fs-sandbox", () => {
  it("stock: the materialized payload fails with DSH's justification error", async () => {
    const { write } = await compose('workspace-write', { hardened: false })
    const result = await write({ file_path: 'g.txt', content: 'x', ...MATERIALIZED })
    expect(result.isError).toBe(true)
    expect(result.content[0]?.text).toBe('Error: invalid justification: expected a non-empty sentence')
  })

  for (const overlayFirst of [undefined, true, false]) {
    const label =
      overlayFirst === undefined ? 'alone' : overlayFirst ? 'after the overlay' : 'before the overlay'
    it(`hardened (${label}): the materialized payload writes the file in workspace-write`, async () => {
      const { write, workspace, tools } = await compose('workspace-write', {
        hardened: true,
        ...(overlayFirst === undefined ? {} : { overlayFirst }),
      })
      const result = await write({ file_path: 'g.txt', content: 'x', ...MATERIALIZED })
      expect(result.isError).not.toBe(true)
      expect(readFileSync(join(workspace, 'g.txt'), 'utf8')).toBe('x')
      expect(result.content.at(-1)?.text).toContain('was dropped as a no-op')
      expect(tools.get('write')?.parameters).toMatchObject({
        properties: { sandbox_permissions: { type: ['string', 'null'] } },
      })
    })
  }

  it('hardened, read-only: null fields run in read-only and the fence still denies the write', async () => {
    const { write } = await compose('read-only', { hardened: true })
    const result = await write({
      file_path: 'g.txt',
      content: 'x',
      sandbox_permissions: null,
      justification: null,
    })
    expect(result.isError).toBe(true)
    expect(result.content[0]?.text).toContain('[sandbox: file access denied under read-only mode]')
  })

  it('hardened, read-only: a wider request with an empty justification fails with the guidance text', async () => {
    const { write } = await compose('read-only', { hardened: true })
    const result = await write({ file_path: 'g.txt', content: 'x', ...MATERIALIZED })
    expect(result.content[0]?.text).toMatch(
      /omit sandbox_permissions and justification \(or send null for both\)/,
    )
  })

  it("hardened: a genuine wider request still goes to DSH's approval path (no agent here, so DSH refuses)", async () => {
    const { write } = await compose('read-only', { hardened: true })
    const result = await write({
      file_path: 'g.txt',
      content: 'x',
      sandbox_permissions: 'workspace-write',
      justification: 'need it',
    })
    expect(result.content[0]?.text).toBe(
      'Error: sandbox escalation to "workspace-write" requires approval, but no approval service is composed',
    )
  })
})
