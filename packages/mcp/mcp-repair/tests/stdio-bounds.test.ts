import { PassThrough } from 'node:stream'
import { collectLines } from '@dsh-harden/mcp-transport/fixtures'
import { describe, expect, it } from 'vitest'
import { FAULT_SERVER } from '../fixtures/index.ts'
import { startStdioRepair } from '../src/index.ts'

/** The proxy in-process over the fault FIXTURE server, with a small line limit; the client side is raw lines. */
function proxy(maxLineBytes: number, command = process.execPath, args = [FAULT_SERVER]) {
  const input = new PassThrough()
  const output = new PassThrough()
  const lines = collectLines(output)
  const log: string[] = []
  const repair = startStdioRepair({
    command,
    args,
    input,
    output,
    maxLineBytes,
    stderr: new PassThrough(),
    log: (line) => log.push(line),
  })
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`)
  const answer = async (id: number) => {
    for (let i = 0; i < 400; i++) {
      const found = lines.map((line) => JSON.parse(line)).find((message) => message.id === id)
      if (found) return found
      await new Promise((done) => setTimeout(done, 25))
    }
    throw new Error(`no answer to ${id}`)
  }
  return { repair, send, answer, log, input }
}

describe('mcp repair (stdio): bounded lines and clear process errors', () => {
  it('an answer over the line limit becomes a JSON-RPC error to its request; the next call works', async () => {
    const { repair, send, answer, log, input } = proxy(64 * 1024)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'big', arguments: { bytes: 200_000 } },
    })
    expect(await answer(1)).toMatchObject({
      id: 1,
      error: { code: -32603, message: /answer to tools\/call is 2000\d\d bytes, over the line limit/ },
    })
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'still here' } },
    })
    expect(await answer(2)).toMatchObject({ id: 2, result: { content: [{ text: 'still here' }] } })
    expect(
      log.some((line) => line.includes('over the limit; answered the client with a JSON-RPC error')),
    ).toBe(true)
    input.end()
    await repair.exited
  }, 600_000)

  it('a command that does not exist: named, "command not found", exit 127', async () => {
    const { repair, log } = proxy(1024, '/no/such/server', [])
    expect(await repair.exited).toBe(127)
    expect(log[0]).toMatch(/could not start "\/no\/such\/server": command not found \(spawn ENOENT\)/)
  })

  it('a server that exits at once: its exit code and stderr tail are said, not silence', async () => {
    const { repair, log } = proxy(1024, process.execPath, [
      '-e',
      "console.error('config.json: missing field root'); process.exit(4)",
    ])
    expect(await repair.exited).toBe(4)
    expect(log.join('\n')).toMatch(
      /exited \(code 4\) while the client was connected; its stderr ends with: "config.json: missing field root"/,
    )
  })
})
