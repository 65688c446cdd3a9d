import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lintError, runCli } from './run-cli.ts'

describe('dsh-harden lint: a plugin that cannot load exits 2 with the reason', { timeout: 600_000 }, () => {
  it('names a path that does not exist', async () => {
    const { code, error } = await lintError('tests/fixtures/does-not-exist.mjs')
    expect(code).toBe(2)
    expect(error).toBe('tests/fixtures/does-not-exist.mjs: no such file or directory')
  })

  it('names a module with a syntax error', async () => {
    // Written at test time: a broken file in the fixtures folder would break the repository's own lint.
    const dir = await mkdtemp(join(tmpdir(), 'dsh-harden-cli-'))
    const file = join(dir, 'broken.mjs')
    await writeFile(file, 'export default {\n  apply(ctx) {\n    ctx.tools.register({ name: "x",\n')
    const { code, error } = await lintError(file)
    expect(code).toBe(2)
    expect(error).toBe(`${file}:4:1: syntax error: Unexpected end of input`)
  })

  it('names a module that exports no plugin, and lists what it does export', async () => {
    const { code, error } = await lintError('tests/fixtures/no-plugin.mjs')
    expect(code).toBe(2)
    expect(error).toMatch(
      /^tests\/fixtures\/no-plugin\.mjs exports no DSH plugin \(its exports are: tools, version\)/,
    )
  })

  it('names a module that throws while it is imported', async () => {
    const { code, error } = await lintError('tests/fixtures/throws-at-import.mjs')
    expect(code).toBe(2)
    expect(error).toMatch(/throws-at-import\.mjs failed to import: fixture: configuration file/)
  })

  it('names a directory without package.json', async () => {
    const { code, error } = await lintError('tests/fixtures')
    expect(code).toBe(2)
    expect(error).toMatch(/^tests\/fixtures is a directory that has no package\.json/)
  })

  it('reports an apply that throws before registering anything', async () => {
    const { code, error } = await lintError('tests/fixtures/apply-throws.mjs')
    expect(code).toBe(2)
    expect(error).toMatch(
      /apply-throws\.mjs: the plugin's apply threw: fixture: cannot reach the license server/,
    )
  })

  it('bounds the load time and reports the timeout instead of hanging', async () => {
    const started = Date.now()
    const { code, error } = await lintError('tests/fixtures/hangs-early.mjs', '--timeout', '300')
    expect(code).toBe(2)
    expect(error).toMatch(/did not finish loading within 300 ms/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('explains the cordis 3 { required, optional } inject form that cordis 4 cannot start', async () => {
    const { code, notes } = await lintError('tests/fixtures/cordis3-inject.mjs')
    expect(code).toBe(2)
    expect(notes).toEqual([expect.stringMatching(/cordis 3 form \{ required, optional \}/)])
  })

  it('does not stand in for a built-in context property in inject, and says why the plugin never starts', async () => {
    const { code, error, notes } = await lintError('tests/fixtures/injects-logger.mjs')
    expect(code).toBe(2)
    expect(error).toMatch(/never started: cordis is still waiting for "logger"/)
    expect(notes).toEqual([expect.stringMatching(/"logger", a built-in cordis context property/)])
  })

  it('prints the reason on stderr, without a stack trace, in text mode', async () => {
    const { code, stdout, stderr } = await runCli(['lint', 'tests/fixtures/throws-at-import.mjs'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^dsh-harden lint: tests\/fixtures\/throws-at-import\.mjs failed to import/)
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
