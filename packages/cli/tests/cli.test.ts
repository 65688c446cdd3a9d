import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.ts'

/** A Node older than DSH's minimum on this machine, if there is one (the system Node often is). */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
      const [major = 0, minor = 0] = version.split('.').map(Number)
      if (major < 22 || (major === 22 && minor < 19)) return candidate
    } catch {}
  }
  return undefined
}

describe('dsh-harden command line', { timeout: 30_000 }, () => {
  it('prints usage listing the commands for --help (exit 0)', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: dsh-harden <command>/)
    expect(stdout).toMatch(/^ {2}lint {2}/m)
    expect(stdout).toMatch(/^ {2}types {2}/m)
    expect(stdout).toMatch(/^ {2}sanitize {2}/m)
  })

  it('rejects an unknown command with usage (exit 2)', async () => {
    const { code, stderr } = await runCli(['frobnicate'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/unknown command "frobnicate"/)
    expect(stderr).toMatch(/Usage: dsh-harden <command>/)
  })

  it('asks for a command when given none (exit 2)', async () => {
    const { code, stderr } = await runCli([])
    expect(code).toBe(2)
    expect(stderr).toMatch(/missing a command/)
  })

  it('rejects lint without a path, with an unknown option, or with a bad timeout (exit 2)', async () => {
    expect((await runCli(['lint'])).code).toBe(2)
    const unknown = await runCli(['lint', '--bogus', 'x.mjs'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/Unknown option '--bogus'/)
    const timeout = await runCli(['lint', 'tests/fixtures/mixed.mjs', '--timeout', 'soon'])
    expect(timeout.code).toBe(2)
    expect(timeout.stderr).toMatch(/--timeout must be a positive whole number/)
  })

  it('prints lint usage for lint --help (exit 0)', async () => {
    const { code, stdout } = await runCli(['lint', '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: dsh-harden lint <plugin module or package directory>/)
  })

  const older = olderNode()
  it.runIf(older !== undefined)(
    'refuses a Node older than 22.19 and says how to get one (exit 2)',
    async () => {
      const { code, stdout, stderr } = await runCli(['lint', 'tests/fixtures/mixed.mjs'], older)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/needs Node\.js >= 22\.19/)
      expect(stderr).toMatch(/npx -p node@22/)
    },
  )
})
