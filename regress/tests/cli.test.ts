import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { selectGroups } from '../src/cli.ts'
import { group } from '../src/group.ts'

/** The real runner, started as a process: what reaches stdout, what reaches the log, exit codes, `--only`. */
const MAIN = fileURLToPath(new URL('./fixtures/noisy-main.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'regress-cli-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function regress(args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env }
  delete childEnv.DSH_HARDEN_REGRESS_LOG
  const result = spawnSync(process.execPath, [MAIN, ...args], {
    encoding: 'utf8',
    env: childEnv,
    timeout: 600_000,
  })
  return { stdout: result.stdout, stderr: result.stderr, status: result.status }
}

describe('pnpm regress (runner)', () => {
  it('keeps every stderr line, the parent’s and a child’s, out of the report and in the log it names', () => {
    const log = join(dir, 'run.log')
    const run = regress(['--log', log])
    expect(run.status).toBe(0)
    expect(run.stdout).not.toContain('noise on stderr')
    expect(run.stderr).not.toContain('noise on stderr')
    expect(run.stdout).toContain(`child-process stderr and diagnostics: ${log}`)
    const logged = readFileSync(log, 'utf8')
    expect(logged).toContain('parent noise on stderr')
    expect(logged).toContain('child noise on stderr')
  })

  it('prints the legend first, the groups’ notes, and a hint of 1,500 characters whole', () => {
    const run = regress(['--log', join(dir, 'legend.log')])
    expect(run.stdout.indexOf('Legend')).toBeLessThan(run.stdout.indexOf('== noisy'))
    expect(run.stdout).toMatch(/kind {4}fix {5}stock was observed failing/)
    expect(run.stdout).toContain('noisy: 1 child started')
    expect(run.stdout).toContain(`hint: ${'x'.repeat(1500)} END-OF-HINT`)
    expect(run.stdout).toContain('== noisy (1 row) ==')
    expect(run.stdout).toContain('2 rows (1 fixed, 1 holds); every row passes')
  })

  it('exits 1 when a row does not pass, and --json carries the computed verdict', () => {
    const run = regress(['--json', '--log', join(dir, 'json.log')], { NOISY_FAIL: '1' })
    expect(run.status).toBe(1)
    const report = JSON.parse(run.stdout) as { rows: { id: string; verdict: string }[]; passes: boolean }
    expect(report.rows.map((row) => [row.id, row.verdict])).toEqual([
      ['noisy-row', 'not-fixed'],
      ['quiet-row', 'holds'],
    ])
    expect(report.passes).toBe(false)
  })

  it('--only runs the named group; an unknown name exits 2 and lists the groups', () => {
    const only = regress(['--only', 'quiet', '--log', join(dir, 'only.log')])
    expect(only.status).toBe(0)
    expect(only.stdout).not.toContain('== noisy')
    expect(only.stdout).toContain('1 row (1 holds); every row passes')
    const unknown = regress(['--only', 'nope'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('--only "nope": no such group; known groups: noisy, quiet')
  })
})

describe('selectGroups', () => {
  const groups = ['a', 'b', 'c'].map((name) => group(name, name, async () => ({ run: async () => [] })))
  it('keeps report order whatever order --only names them in', () => {
    expect(selectGroups(groups, ['c', 'a']).map((g) => g.name)).toEqual(['a', 'c'])
    expect(selectGroups(groups, undefined)).toBe(groups)
  })
})
