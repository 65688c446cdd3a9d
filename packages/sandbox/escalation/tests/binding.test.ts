import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  bashWorkdirBase,
  canonicalPath,
  DenialTokenStore,
  type EscalatingDefinition,
  effectHash,
  escalationTransform,
  fsFamily,
  shellFamily,
} from '../src/index.ts'

const temps: string[] = []
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true })
})

/** A DSH definition that advertises the escalation fields (a confining backend is mounted). */
const definition = (name: string): EscalatingDefinition =>
  ({
    name,
    description: name,
    parameters: {
      type: 'object',
      properties: { command: { type: 'string' }, sandbox_permissions: {}, justification: {} },
    },
    execute: async () => ({}),
  }) as unknown as EscalatingDefinition

function policyAt(root: string) {
  return () => ({ resolve: () => ({ mode: 'read-only', workspaceRoot: root }) })
}
const exec = { callId: 'c1', agent: { session: { id: 'session-1', header: { cwd: '/ws' } } } }

describe('denial tokens bind what the call does', () => {
  const bash = shellFamily(definition('bash'), {
    tool: 'bash',
    policy: policyAt('/ws'),
    base: bashWorkdirBase,
  })
  const denied = { command: 'npm install', timeoutMs: 60_000 }
  const retry = { ...denied, sandbox_permissions: 'workspace-write', justification: 'needs the cache' }

  it('bash: the exact retry redeems; changing run_in_background or timeoutMs does not', () => {
    const store = new DenialTokenStore()
    const { token } = store.issue(bash.binding!(denied, exec)!)
    for (const changed of [
      { ...retry, run_in_background: true },
      { ...retry, timeoutMs: 3_600_000 },
      { ...retry, command: 'npm install evil' },
    ]) {
      const verdict = store.check(token, bash.binding!(changed, exec)!)
      expect(verdict, JSON.stringify(changed)).toMatchObject({ ok: false, reason: 'mismatch' })
    }
    expect(store.check(token, bash.binding!({ ...retry, run_in_background: true }, exec)!)).toMatchObject({
      message: /other arguments \(content, timeout, background/,
    })
    expect(store.redeem(token, bash.binding!({ ...retry, escalation_token: token }, exec)!)).toEqual({
      ok: true,
    })
  })

  it('write/edit: bound to the content and to the canonical path (a symlink swapped in is another target)', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'esc-binding-')))
    temps.push(root)
    await mkdir(join(root, 'real'))
    await mkdir(join(root, 'elsewhere'))
    await symlink(join(root, 'real'), join(root, 'link'))
    const write = fsFamily(definition('write'), 'write', policyAt(root))
    const first = write.binding!({ file_path: 'link/new.txt', content: 'hello' }, exec)!
    expect(first.target).toBe(join(root, 'real', 'new.txt'))
    const store = new DenialTokenStore()
    const { token } = store.issue(first)
    const retryWith = (args: Record<string, unknown>) =>
      store.check(token, write.binding!({ ...args, sandbox_permissions: 'workspace-write' }, exec)!)
    expect(retryWith({ file_path: 'link/new.txt', content: 'rm -rf ~' })).toMatchObject({
      reason: 'mismatch',
    })
    // The same spelled path, after the link was pointed elsewhere: a different canonical target.
    await rm(join(root, 'link'))
    await symlink(join(root, 'elsewhere'), join(root, 'link'))
    expect(retryWith({ file_path: 'link/new.txt', content: 'hello' })).toMatchObject({ reason: 'mismatch' })
    await rm(join(root, 'link'))
    await symlink(join(root, 'real'), join(root, 'link'))
    expect(retryWith({ file_path: 'real/new.txt', content: 'hello' })).toEqual({ ok: true })

    const edit = fsFamily(definition('edit'), 'edit', policyAt(root))
    const editArgs = { file_path: 'real/a.txt', old_string: 'a', new_string: 'b' }
    const editToken = store.issue(edit.binding!(editArgs, exec)!).token
    for (const changed of [{ new_string: 'c' }, { old_string: 'x' }, { replace_all: true }])
      expect(store.check(editToken, edit.binding!({ ...editArgs, ...changed }, exec)!)).toMatchObject({
        reason: 'mismatch',
      })
  })

  it('effectHash: key order and the escalation request itself never matter; any other value does', () => {
    const json = fc.jsonValue()
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), json, { maxKeys: 5 }),
        fc.record({
          sandbox_permissions: json,
          justification: json,
          escalation_token: json,
          description: json,
        }),
        fc.stringMatching(/^[a-z_]{1,8}$/),
        json,
        (args, request, key, value) => {
          const plain = Object.fromEntries(
            Object.entries(args).filter(
              ([k]) =>
                !['sandbox_permissions', 'justification', 'escalation_token', 'description'].includes(k),
            ),
          )
          const reversed = Object.fromEntries(Object.entries(plain).reverse())
          expect(effectHash({ ...reversed, ...request }, [])).toBe(effectHash(plain, []))
          if (Object.hasOwn(request, key)) return
          const changed = { ...plain, [key]: value }
          if (JSON.stringify(changed[key]) !== JSON.stringify(plain[key]))
            expect(effectHash(changed, [])).not.toBe(effectHash(plain, []))
        },
      ),
    )
  })

  it('canonicalPath resolves the longest existing prefix and keeps the rest', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'esc-canon-')))
    temps.push(root)
    await symlink(root, join(root, 'self'))
    expect(canonicalPath(join(root, 'self', 'a', 'b.txt'))).toBe(join(root, 'a', 'b.txt'))
  })
})

describe('the escalation transform selects DSH’s own tools by who registers them', () => {
  const transform = (onSkipped: (message: string) => void) =>
    escalationTransform({
      name: 'dsh-harden-tool-bash',
      source: 'tool-bash',
      onSkipped,
      settings: { denialBound: false, tokenTtlMs: undefined },
      families: {
        bash: (d) => shellFamily(d, { tool: 'bash', policy: policyAt('/ws'), base: bashWorkdirBase }),
      },
    })

  it('wraps `bash` from tool-bash; leaves a look-alike `bash` from another plugin alone and says so', () => {
    const skipped: string[] = []
    const t = transform((message) => skipped.push(message))
    expect(t.transform(definition('bash'), { source: 'tool-bash' })).toBeDefined()
    expect(skipped).toEqual([])
    expect(t.transform(definition('bash'), { source: 'my-shell-plugin' })).toBeUndefined()
    expect(t.transform(definition('bash'), { source: undefined })).toBeUndefined()
    expect(skipped).toEqual([
      'dsh-harden-tool-bash: left the tool "bash" registered by plugin "my-shell-plugin" alone; only DSH\'s own "bash" (registered by "tool-bash") gets the escalation rules',
      'dsh-harden-tool-bash: left the tool "bash" registered outside any plugin alone; only DSH\'s own "bash" (registered by "tool-bash") gets the escalation rules',
    ])
    expect(t.transform(definition('grep'), { source: 'tool-bash' })).toBeUndefined()
    expect(skipped).toHaveLength(2)
  })

  it('says how to name the plugin of a tool registered before anything recorded sources', () => {
    const skipped: string[] = []
    const t = transform((message) => skipped.push(message))
    expect(t.transform(definition('bash'), { source: undefined, unrecorded: true })).toBeUndefined()
    expect(skipped).toEqual([
      'dsh-harden-tool-bash: left the tool "bash" registered before this row started, by a plugin nothing recorded (add the @dsh-harden/overlay/early row to name it) alone; only DSH\'s own "bash" (registered by "tool-bash") gets the escalation rules',
    ])
  })
})
