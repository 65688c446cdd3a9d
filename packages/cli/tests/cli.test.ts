import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_DIR, runCli } from './run-cli.ts'

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

describe('dsh-harden command line', { timeout: 600_000 }, () => {
  it('lists every command and every mcp subcommand for --help (exit 0)', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: dsh-harden <command>/)
    for (const name of ['lint', 'types', 'sanitize', 'mcp repair', 'mcp gateway', 'mcp check', 'doctor'])
      expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'))
    expect(stdout).toMatch(/Exit codes: 0 ok; 1 findings .*; 2 unusable input or bad usage/)
  })

  it('lists the mcp subcommands for mcp --help (exit 0)', async () => {
    const { code, stdout } = await runCli(['mcp', '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: dsh-harden mcp <command>/)
    for (const name of ['repair', 'gateway', 'check'])
      expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'))
  })

  it('rejects an unknown command in one line that lists the commands (exit 2)', async () => {
    const { code, stdout, stderr } = await runCli(['frobnicate'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'dsh-harden: unknown command "frobnicate" (commands: lint, types, sanitize, mcp, doctor); run `dsh-harden --help` for the usage\n',
    )
  })

  it('asks for a command when given none, and for an mcp command after mcp (exit 2)', async () => {
    const top = await runCli([])
    expect(top.code).toBe(2)
    expect(top.stderr).toBe(
      'dsh-harden: missing a command (lint, types, sanitize, mcp, doctor); run `dsh-harden --help` for the usage\n',
    )
    const mcp = await runCli(['mcp'])
    expect(mcp.code).toBe(2)
    expect(mcp.stderr).toBe(
      'dsh-harden mcp: missing a command (repair, gateway, check); run `dsh-harden mcp --help` for the usage\n',
    )
  })

  it('rejects lint without a path or with a bad timeout (exit 2)', async () => {
    const missing = await runCli(['lint'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      'dsh-harden lint: missing the plugin path; run `dsh-harden lint --help` for the usage\n',
    )
    const timeout = await runCli(['lint', 'tests/fixtures/mixed.mjs', '--timeout', 'soon'])
    expect(timeout.code).toBe(2)
    expect(timeout.stderr).toMatch(/--timeout must be a positive whole number/)
  })

  it('prints lint usage for lint --help (exit 0)', async () => {
    const { code, stdout } = await runCli(['lint', '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: dsh-harden lint <plugin module or package directory>/)
  })

  it('resolves paths from INIT_CWD when run as the workspace root script `pnpm dsh-harden`', async () => {
    const { code, stdout } = await runCli(['lint', 'mixed.mjs', '--json'], {
      cwd: tmpdir(),
      env: { npm_lifecycle_event: 'dsh-harden', INIT_CWD: join(PACKAGE_DIR, 'tests', 'fixtures') },
    })
    expect(code).toBe(1)
    expect((JSON.parse(stdout) as { plugin: { path: string } }).plugin.path).toBe('mixed.mjs')
  })

  const older = olderNode()
  it.runIf(older !== undefined)(
    'refuses a Node older than 22.19 and names the command that runs it on Node 22 from this checkout (exit 2)',
    async () => {
      const { code, stdout, stderr } = await runCli(['lint', 'tests/fixtures/mixed.mjs', '--json'], {
        node: older,
      })
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/needs Node\.js >= 22\.19/)
      expect(stderr).toMatch(
        /^ {2}pnpm -w dsh-harden lint tests\/fixtures\/mixed\.mjs --json {3}\(anywhere in this checkout/m,
      )
    },
  )
})
