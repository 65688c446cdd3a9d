import { PassThrough } from 'node:stream'
import { CANARY_MARK, ORDINARY_ENV, SECRET_CANARIES } from '@dsh-harden/mcp-transport/fixtures'
import { describe, expect, it } from 'vitest'
import { startStdioRepair } from '../src/index.ts'

const parent = { ...SECRET_CANARIES, ...ORDINARY_ENV, PATH: process.env.PATH ?? '/usr/bin' }

describe('child environment of the repair proxy: an allow-list, not a deny-list', () => {
  it('a real server started by `mcp repair -- <command>` sees none of the canaries', async () => {
    // The "server" prints its environment as one JSON-RPC notification and exits.
    const script = `process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'env',params:process.env})+'\\n')`
    const output = new PassThrough()
    let text = ''
    output.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
    })
    const proxy = startStdioRepair({
      command: process.execPath,
      args: ['-e', script],
      parentEnv: parent,
      passEnv: ['TZ'],
      env: { OWN: '1' },
      input: new PassThrough(),
      output,
      log: () => {},
    })
    await proxy.exited
    const seen = JSON.parse(text.trim()).params as Record<string, string>
    expect(text).not.toContain(CANARY_MARK)
    for (const name of Object.keys(SECRET_CANARIES)) expect(seen, name).not.toHaveProperty(name)
    expect(seen).toMatchObject({ HOME: '/home/u', OWN: '1', TZ: 'UTC' })
  })
})
