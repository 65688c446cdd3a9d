import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cpuTimeWrapper, GNU_TIME, parseCpuTime, readCpuTime } from '../src/app-cpu.ts'
import { runBounded } from '../src/dsh-app.ts'

describe('parseCpuTime', () => {
  it('reads the four figures of the last matching line, after a failure status line', () => {
    const text = 'Command exited with non-zero status 3\n1.25 0.40 2.03 81234\n'
    expect(parseCpuTime(text, 'x')).toEqual({ userS: 1.25, systemS: 0.4, wallS: 2.03, maxRssKiB: 81234 })
  })

  it('names the file when there are no figures', () => {
    expect(() => parseCpuTime('Command terminated by signal 9\n', '/tmp/run.cpu')).toThrow(/\/tmp\/run\.cpu/)
  })
})

describe.skipIf(!existsSync(GNU_TIME))('cpuTimeWrapper', () => {
  const dir = mkdtempSync(join(tmpdir(), 'app-cpu-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('wraps a command so that GNU time writes figures readCpuTime reads, whatever the exit status', async () => {
    const file = join(dir, 'run.cpu')
    const [command = '', ...args] = [...cpuTimeWrapper(file), process.execPath, '-e', 'process.exitCode = 3']
    const env = { PATH: process.env.PATH ?? '' }
    const run = await runBounded(command, args, { cwd: dir, env, timeoutMs: 30_000, label: 'exit 3' })
    // GNU time passes the command's status through.
    expect(run.exitCode).toBe(3)
    const cpu = readCpuTime(file)
    expect(cpu.maxRssKiB).toBeGreaterThan(0)
    expect(cpu.userS).toBeGreaterThanOrEqual(0)
  })
})
