import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { MAX_MESSAGE_BYTES } from '@dsh-harden/mcp-repair'
import { collectLines } from '@dsh-harden/mcp-repair/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { serveGatewayOverStdio } from '../src/index.ts'
import { TINY_SERVER, tempDir } from './servers.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('the gateway’s own stdio input is bounded', () => {
  it('a request over the message limit gets a JSON-RPC error with its id; the next request is served', async () => {
    const temp = await tempDir()
    cleanups.push(temp.remove)
    const config = join(temp.dir, 'gateway.json')
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    )
    const input = new PassThrough()
    const output = new PassThrough()
    const lines = collectLines(output)
    const gateway = await serveGatewayOverStdio({
      configFile: config,
      input,
      output,
      env: { PATH: process.env.PATH },
    })
    cleanups.push(() => gateway.close())
    const answerTo = async (id: number) => {
      for (let i = 0; i < 400; i++) {
        const found = lines.map((line) => JSON.parse(line)).find((message) => message.id === id)
        if (found) return found
        await new Promise((done) => setTimeout(done, 25))
      }
      throw new Error(`no answer to ${id}`)
    }
    const pad = 'x'.repeat(MAX_MESSAGE_BYTES)
    input.write(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mcp_servers","arguments":{"pad":"${pad}"}}}\n`,
    )
    expect(await answerTo(7)).toMatchObject({
      id: 7,
      error: { code: -32600, message: /over the gateway's limit/ },
    })
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    )
    expect(await answerTo(8)).toMatchObject({
      id: 8,
      result: { serverInfo: { name: 'dsh-harden-lazy-mcp' } },
    })
  }, 30_000)
})
