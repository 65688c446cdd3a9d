import { CANARY_MARK, SECRET_CANARIES } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { openStdio } from '../src/wire/stdio.ts'

const saved = { ...process.env }
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

describe('mcp check’s server process', () => {
  it('sees the default environment, passEnv and its own env; no canary secret of the checker', async () => {
    Object.assign(process.env, SECRET_CANARIES, { CHECK_PLAIN: 'passed' })
    const connection = openStdio({
      command: process.execPath,
      args: ['-e', 'console.error(JSON.stringify(process.env)); setTimeout(() => {}, 5000)'],
      env: { OWN: 'own' },
      passEnv: ['CHECK_PLAIN'],
    })
    try {
      const exchange = await connection.request('ping', undefined, 300)
      expect(exchange.outcome.kind).toBe('timeout')
      const seen = JSON.parse(connection.stderr()) as Record<string, string>
      expect(seen).toMatchObject({ OWN: 'own', CHECK_PLAIN: 'passed', PATH: process.env.PATH })
      for (const name of Object.keys(SECRET_CANARIES)) expect(seen, name).not.toHaveProperty(name)
      expect(connection.stderr()).not.toContain(CANARY_MARK)
    } finally {
      await connection.close()
    }
  })

  it('a command that does not exist is named as not found, with how to fix it', async () => {
    const connection = openStdio({ command: '/no/such/server', args: [] })
    const exchange = await connection.request('initialize', {}, 5000)
    await connection.close()
    expect(exchange.outcome).toEqual({
      kind: 'closed',
      detail: expect.stringMatching(
        /could not start "\/no\/such\/server": command not found \(spawn ENOENT\); check the spelling/,
      ),
    })
  })

  it('a server that exits at once: exit code and stderr tail, not a bare "closed"', async () => {
    const connection = openStdio({
      command: process.execPath,
      args: ['-e', "console.error('error: --root is required'); process.exit(2)"],
    })
    const exchange = await connection.request('initialize', {}, 5000)
    await connection.close()
    expect(exchange.outcome).toMatchObject({ kind: 'closed' })
    const detail = (exchange.outcome as { detail: string }).detail
    expect(detail).toMatch(/exited with code 2 before answering/)
    expect(detail).toContain('error: --root is required')
  })
})
