import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { BIN, PACKAGE_DIR, runCli } from './run-cli.ts'

// Nothing needs to listen upstream: the facade refuses or binds before it ever connects.
const UPSTREAM = 'http://127.0.0.1:9/mcp'

describe('dsh-harden mcp repair --listen', () => {
  it('refuses an address other machines can reach, in one line naming the fix, exit 2', async () => {
    const result = await runCli(['mcp', 'repair', '--upstream', UPSTREAM, '--listen', '0.0.0.0:0'])
    expect(result.code).toBe(2)
    const lines = result.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^dsh-harden mcp repair: refusing to listen on "0\.0\.0\.0"/)
    expect(lines[0]).toContain('--allow-non-loopback')
  })

  it('binds a non-loopback address only with --allow-non-loopback, and warns', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'mcp', 'repair', '--upstream', UPSTREAM, '--listen', '0.0.0.0:0', '--allow-non-loopback'],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    const serving = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no 'serving' line; stderr: ${stderr}`)), 20_000)
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        if (stderr.includes('serving ')) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    try {
      await serving
      expect(stderr).toMatch(/reachable from other machines \(--allow-non-loopback\)/)
      expect(stderr).toMatch(/serving http:\/\/127\.0\.0\.1:9\/mcp at http:\/\/0\.0\.0\.0:\d+\/mcp/)
    } finally {
      child.kill('SIGTERM')
    }
  }, 600_000)
})
