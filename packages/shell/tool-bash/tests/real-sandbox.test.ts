import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SandboxBashExecutor from '@deepseek-ai/dsh-bash-sandbox'
import LocalSandboxProvider from '@deepseek-ai/dsh-sandbox-local'
import SandboxPolicyService from '@deepseek-ai/dsh-sandbox-policy'
import * as ShellEnv from '@deepseek-ai/dsh-shell-env'
import LocalSubprocessRuntime from '@deepseek-ai/dsh-subprocess-local'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as DshToolBash from '@deepseek-ai/dsh-tool-bash'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { SourceRecorder } from '@dsh-harden/overlay'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import HardenToolBash from '../src/index.ts'

/**
 * The plugin over DSH's real bash tool and the real confining stack (`dsh-sandbox-local`: Landlock here, or bwrap),
 * through `tools.execute` without an agent: placeholders need no approval, so no turn is needed. Confinement is
 * probed with a real denied write first; where the host cannot confine, DSH must fail closed (SANDBOX_UNAVAILABLE)
 * and that is what is asserted. Approval paths run through the agent loop in regress.
 */
interface Tools {
  execute(input: unknown): Promise<{ isError?: boolean; content: { text: string }[] }>
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Where the hardening row loads: before DSH's `tool-bash`, or after it with the overlay's early recorder (the app). */
type Hardened = false | 'before' | 'after'

async function compose(mode: 'read-only' | 'workspace-write' | 'danger-full-access', hardened: Hardened) {
  const workspace = mkdtempSync(join(tmpdir(), 'dsh-harden-bash-'))
  dirs.push(workspace)
  const app = new Context()
  if (hardened === 'after') await app.plugin(SourceRecorder)
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  await app.plugin(LocalSubprocessRuntime)
  await app.plugin(ShellEnv)
  await app.plugin(SandboxPolicyService, { mode, workspaceRoot: workspace })
  await app.plugin(LocalSandboxProvider)
  await app.plugin(SandboxBashExecutor)
  if (hardened === 'before') await app.plugin(HardenToolBash)
  await app.plugin(DshToolBash, { enableRunInBackground: false })
  const harden = hardened === 'after' ? app.plugin(HardenToolBash) : undefined
  await harden
  const tools = (app as unknown as { tools: Tools }).tools
  const bash = (args: Record<string, unknown>) =>
    tools.execute({ callId: 'c1', name: 'bash', arguments: args, signal: new AbortController().signal })
  return { bash, workspace, harden }
}

const WRITE_F = { command: 'echo hi > f.txt && cat f.txt', description: 'Write f.txt' }
const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }
let confines = false

beforeAll(async () => {
  const { bash } = await compose('read-only', false)
  const probe = await bash(WRITE_F)
  const text = probe.content[0]?.text ?? ''
  confines = text.includes('[sandbox: file access denied under read-only mode]')
  if (!confines)
    expect(text).toMatch(/no sandbox backend is usable on this host; refusing to run the command unconfined/)
}, 600_000)

describe('@dsh-harden/tool-bash over the real sandbox', () => {
  for (const mode of ['workspace-write', 'danger-full-access'] as const) {
    it(`the materialized payload under ${mode}: stock fails, hardened runs the command in ${mode}`, async () => {
      if (!confines) return
      const stock = await compose(mode, false)
      expect((await stock.bash({ ...WRITE_F, ...MATERIALIZED })).content[0]?.text).toBe(
        'Error: invalid justification: expected a non-empty sentence',
      )
      for (const order of ['before', 'after'] as const) {
        const hardened = await compose(mode, order)
        const result = await hardened.bash({ ...WRITE_F, ...MATERIALIZED })
        expect(result.isError).not.toBe(true)
        expect(readFileSync(join(hardened.workspace, 'f.txt'), 'utf8')).toBe('hi\n')
        expect(result.content[0]?.text).toMatch(
          /^hi\n\[sandbox: sandbox_permissions "workspace-write" was dropped/,
        )
      }
    })
  }

  it('loaded after DSH registered bash (as in the app), it applies at once and is undone with its row', async () => {
    if (!confines) return
    const { bash, harden } = await compose('workspace-write', 'after')
    expect((await bash({ ...WRITE_F, sandbox_permissions: null, justification: null })).isError).not.toBe(
      true,
    )
    await harden?.dispose()
    expect((await bash({ ...WRITE_F, ...MATERIALIZED })).content[0]?.text).toBe(
      'Error: invalid justification: expected a non-empty sentence',
    )
  })

  it('null fields under read-only: the command runs confined and the kernel still denies the write', async () => {
    if (!confines) return
    const { bash, workspace } = await compose('read-only', 'before')
    const result = await bash({ ...WRITE_F, sandbox_permissions: null, justification: null })
    expect(result.content[0]?.text).toContain('[sandbox: file access denied under read-only mode]')
    expect(() => readFileSync(join(workspace, 'f.txt'))).toThrow()
  })
})
