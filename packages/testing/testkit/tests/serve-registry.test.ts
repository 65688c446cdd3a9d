/**
 * `pnpm local-registry` (src/serve-registry.ts) as INSTALL.md uses it: publish the checkout, run one command with the
 * scope routed to the registry, stop. The command here is npm's own `npm view`, so nothing is installed.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const execFileAsync = promisify(execFile)
const SCRIPT = fileURLToPath(new URL('../src/serve-registry.ts', import.meta.url))

async function serve(args: readonly string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [SCRIPT, ...args], {
      timeout: 900_000,
      killSignal: 'SIGKILL',
      maxBuffer: 1 << 24,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' }
  }
}

describe('pnpm local-registry', () => {
  it('refuses a bad option in one line with the usage, exit 2, before starting anything', async () => {
    const run = await serve(['--port', 'eighty'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      /^local-registry: --port eighty is not a port number\nusage: pnpm local-registry/,
    )
  })

  it('runs the command after -- against the published checkout and exits with its code', async () => {
    // One publish for both: a lookup that must succeed, then one that must fail and set the exit code.
    const views = 'npm view @dsh-harden/overlay dsh.bundle.patch && npm view @dsh-harden/no-such-package'
    const run = await serve(['--', 'sh', '-c', views])
    expect(run.stdout).toMatch(/^@dsh-harden:registry=http:\/\/127\.0\.0\.1:\d+\/\n/)
    expect(run.stdout).toContain('./cordis.patch.yml')
    expect(run.stderr).toMatch(/404/)
    expect(run.code).toBe(1)
  })
})
