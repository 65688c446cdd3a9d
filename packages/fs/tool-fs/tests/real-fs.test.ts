import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SandboxedFileSystem from '@deepseek-ai/dsh-fs-sandbox'
import SandboxPolicyService from '@deepseek-ai/dsh-sandbox-policy'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as DshToolFs from '@deepseek-ai/dsh-tool-fs'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay, SourceRecorder } from '@dsh-harden/overlay'
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
  options: { hardened: boolean; overlayFirst?: boolean; late?: boolean },
) {
  const workspace = mkdtempSync(join(tmpdir(), 'dsh-harden-fs-'))
  dirs.push(workspace)
  const app = new Context()
  if (options.late) await app.plugin(SourceRecorder)
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  await app.plugin(SandboxPolicyService, { mode, workspaceRoot: workspace })
  await app.plugin(SandboxedFileSystem)
  const early = options.hardened && !options.late
  if (early && options.overlayFirst) await app.plugin(HardenOverlay, { route: 'deepseek' })
  if (early) await app.plugin(HardenToolFs)
  if (early && options.overlayFirst === false) await app.plugin(HardenOverlay, { route: 'deepseek' })
  await app.plugin(DshToolFs)
  // As in the app: DSH's tool-fs registers with the session's agent, before the overlay and this row applied.
  if (options.late) await app.plugin(HardenOverlay, { route: 'deepseek' })
  const harden = options.late ? app.plugin(HardenToolFs) : undefined
  await harden
  const tools = (app as unknown as { tools: Tools }).tools
  const write = (args: Record<string, unknown>) =>
    tools.execute({ callId: 'c1', name: 'write', arguments: args, signal: new AbortController().signal })
  return { app, tools, write, workspace, harden }
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

  it('hardened after DSH registered write and edit (as in the app): applies at once, undone with its row', async () => {
    const { write, workspace, tools, harden } = await compose('workspace-write', {
      hardened: true,
      late: true,
    })
    expect(tools.get('edit')?.parameters).toMatchObject({
      properties: { sandbox_permissions: { type: ['string', 'null'] } },
    })
    const result = await write({
      file_path: 'h.txt',
      content: 'y',
      sandbox_permissions: null,
      justification: null,
    })
    expect(result.isError).not.toBe(true)
    expect(readFileSync(join(workspace, 'h.txt'), 'utf8')).toBe('y')
    await harden?.dispose()
    const stock = await write({ file_path: 'g.txt', content: 'x', ...MATERIALIZED })
    expect(stock.content[0]?.text).toBe('Error: invalid justification: expected a non-empty sentence')
    expect(tools.get('write')?.parameters).toMatchObject({
      properties: { sandbox_permissions: { type: 'string' } },
    })
  })

  it('leaves a look-alike `write` from another plugin alone, whichever loaded first', async () => {
    for (const late of [false, true]) {
      const app = new Context()
      if (late) await app.plugin(SourceRecorder)
      await app.plugin(SystemPrompt)
      await app.plugin(ToolRuntime)
      const lookAlike = {
        name: 'write',
        description: 'a third-party write',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
        output: { schema: {}, render: () => [] },
        execute: async () => 'ok',
      }
      const plugin = {
        name: 'my-fs',
        inject: ['tools'],
        apply: (ctx: Context) => ctx.tools.register(lookAlike),
      }
      if (!late) await app.plugin(HardenToolFs)
      await app.plugin(plugin)
      if (late) await app.plugin(HardenToolFs)
      expect((app as unknown as { tools: Tools }).tools.get('write')).toBe(lookAlike)
    }
  })

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
