import { describe, expect, it } from 'vitest'
import { lintJson, runCli, toolNamed } from './run-cli.ts'

describe('dsh-harden lint: one verdict per registered tool', { timeout: 600_000 }, () => {
  it('fails a bare property table with its pointer, rule and fix, and passes the good tool beside it (exit 1)', async () => {
    const { code, report } = await lintJson('tests/fixtures/mixed.mjs')
    expect(code).toBe(1)
    expect(report.tools.map((tool) => [tool.name, tool.ok])).toEqual([
      ['read_note', true],
      ['bare_table', false],
    ])
    expect(toolNamed(report, 'read_note')).toEqual({
      name: 'read_note',
      source: 'mixed-tools',
      ok: true,
      errors: [],
    })
    const bad = toolNamed(report, 'bare_table')
    expect(bad.source).toBe('mixed-tools')
    expect(bad.errors).toHaveLength(1)
    expect(bad.errors[0]).toMatchObject({ pointer: '', rule: 'bare-property-table' })
    expect(bad.errors[0]?.hint).toMatch(/type: 'object', properties/)
    expect(Object.keys(bad.errors[0] ?? {})).toEqual(['pointer', 'rule', 'message', 'hint'])
  })

  it('passes a tool whose schema ajv cannot compile, with a note naming the construct and the fallback (exit 0)', async () => {
    const { code, report } = await lintJson('tests/fixtures/uncompilable.mjs')
    expect(code).toBe(0)
    expect(report.tools.map((tool) => [tool.name, tool.ok])).toEqual([['twin_ids', true]])
    const notes = report.notes.filter((note) => note.includes('ajv cannot compile'))
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatch(/^tool "twin_ids" from plugin "dsh-uncompilable"/)
    expect(notes[0]).toMatch(/\$id. or .\$anchor. used twice/)
    expect(notes[0]).toMatch(/checked by DSH validateJsonSchemaValue instead/)
  })

  it('prints one line per tool and each violation with its fix in the text report', async () => {
    const { code, stdout } = await runCli(['lint', 'tests/fixtures/mixed.mjs'])
    expect(code).toBe(1)
    const lines = stdout.split('\n')
    expect(lines).toContain('ok   read_note')
    expect(lines).toContain('FAIL bare_table')
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\(root\) \[bare-property-table\] /))
    expect(lines).toContainEqual(expect.stringMatching(/^ {4}fix: wrap it/))
    expect(stdout).toMatch(/2 tools, 1 failing/)
  })

  it('reports every tool of an apply that live DSH would stop at the first throw, in registration order', async () => {
    const { code, report } = await lintJson('tests/fixtures/bad-first.mjs')
    expect(code).toBe(1)
    expect(report.tools.map((tool) => [tool.name, tool.ok])).toEqual([
      ['broken_root', false],
      ['fine_tool', true],
      ['no_output', false],
      ['last_tool', true],
    ])
    expect(toolNamed(report, 'broken_root').errors.map((e) => [e.pointer, e.rule])).toEqual([
      ['/type', 'root-type-not-object'],
    ])
    // DSH's own register check (missing `output`) is reported as a verdict too instead of ending apply.
    expect(toolNamed(report, 'no_output').errors[0]).toMatchObject({ rule: 'dsh-register' })
    expect(toolNamed(report, 'no_output').errors[0]?.message).toMatch(/must declare output/)
    expect(report.findings).toEqual([])
  })

  it('stands in for an injected service lint does not provide, names it, and still reports the tools', async () => {
    const { code, report } = await lintJson('tests/fixtures/injects-fs.mjs')
    expect(code).toBe(1)
    expect(report.standIns).toEqual(['fs'])
    expect(report.tools.map((tool) => [tool.name, tool.ok])).toEqual([
      ['fs_read', true],
      ['fs_bad', false],
    ])
    expect(toolNamed(report, 'fs_bad').errors.map((e) => [e.pointer, e.rule])).toEqual([
      ['/required', 'required-not-array'],
    ])
    const text = await runCli(['lint', 'tests/fixtures/injects-fs.mjs'])
    expect(text.stdout).toMatch(/^stand-ins: fs \(inert/m)
  })

  it('loads a package directory through package.json exports, with a cordis-style module namespace as the plugin', async () => {
    const { code, report } = await lintJson('tests/fixtures/package-dir')
    expect(code).toBe(1)
    expect(report.plugin).toEqual({ path: 'tests/fixtures/package-dir', name: 'packaged-plugin' })
    expect(report.tools).toEqual([
      { name: 'packaged_ok', source: 'packaged-plugin', ok: true, errors: [] },
      expect.objectContaining({ name: 'packaged_empty', source: 'packaged-plugin', ok: false }),
    ])
    expect(toolNamed(report, 'packaged_empty').errors.map((e) => [e.pointer, e.rule])).toEqual([
      ['', 'root-empty'],
    ])
  })

  it('loads a package directory through `main` without an extension, with a class plugin', async () => {
    const { code, report } = await lintJson('tests/fixtures/main-dir')
    expect(code).toBe(0)
    expect(report.tools).toEqual([{ name: 'class_tool', source: 'ClassPlugin', ok: true, errors: [] }])
  })

  it('exits 0 when every tool passes, for a TypeScript function plugin', async () => {
    const { code, stdout } = await runCli(['lint', 'tests/fixtures/all-good.ts'])
    expect(code).toBe(0)
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['ok   alpha', 'ok   beta']))
    expect(stdout).toMatch(/2 tools, all ok/)
    const { report } = await lintJson('tests/fixtures/all-good.ts')
    expect(report.tools.every((tool) => tool.ok && tool.errors.length === 0)).toBe(true)
  })

  it('keeps the tools it saw and adds a plugin finding when apply throws after registering (exit 1)', async () => {
    const { code, report } = await lintJson('tests/fixtures/throws-after-register.mjs')
    expect(code).toBe(1)
    expect(report.tools).toEqual([
      { name: 'early_tool', source: 'throws-after-register', ok: true, errors: [] },
    ])
    expect(report.findings).toEqual([
      expect.stringMatching(/apply threw: fixture: second half of apply failed/),
    ])
  })

  it('reports a timeout as a plugin finding when apply never settles after registering', async () => {
    const { code, report } = await lintJson('tests/fixtures/hangs.mjs', '--timeout', '300')
    expect(code).toBe(1)
    expect(report.tools.map((tool) => tool.name)).toEqual(['before_hang'])
    expect(report.findings).toEqual([expect.stringMatching(/did not finish loading within 300 ms/)])
  })

  it('turns an unhandled rejection from apply into a plugin finding instead of a crash', async () => {
    const { code, report } = await lintJson('tests/fixtures/escapes.mjs')
    expect(code).toBe(1)
    expect(report.tools.map((tool) => [tool.name, tool.ok])).toEqual([['escaping_tool', true]])
    expect(report.findings).toEqual([
      expect.stringMatching(/unhandled rejection escaped the plugin: fixture: background sync failed/),
    ])
  })

  it('keeps stdout pure JSON when the plugin prints, and exits although it leaves a timer running', async () => {
    const { code, report, stderr } = await lintJson('tests/fixtures/noisy.mjs')
    expect(code).toBe(0)
    expect(report.tools.map((tool) => tool.name)).toEqual(['noisy_tool'])
    expect(stderr).toContain('noisy plugin says hello')
    expect(stderr).toContain('raw write')
  })
})
