import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startEverythingHttp } from '@dsh-harden/mcp-client/fixtures'
import { MAX_MESSAGE_BYTES } from '@dsh-harden/mcp-transport'
import { afterEach, describe, expect, it } from 'vitest'
import { openHttp } from '../src/wire/http.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'check', version: '1' },
}

describe('mcp check’s HTTP reader', () => {
  it('reads real server-everything’s SSE answer', async () => {
    const server = await startEverythingHttp()
    cleanups.push(() => server.stop())
    const connection = openHttp({ url: server.url })
    cleanups.push(() => connection.close())
    const exchange = await connection.request('initialize', INITIALIZE, 15_000)
    expect(exchange.outcome).toMatchObject({
      kind: 'reply',
      matchedBy: 'id',
      message: { result: { serverInfo: {} } },
    })
  }, 600_000)

  it('drops an SSE event over the message limit (noted) and still hears the answer after it', async () => {
    // FIXTURE: an upstream that streams an oversize event before its answer.
    const http = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number }
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        const big = 'b'.repeat(64 * 1024)
        for (let sent = 0; sent <= MAX_MESSAGE_BYTES; sent += big.length)
          res.write(sent === 0 ? `data: ${big}` : big)
        res.end(`\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } })}\n\n`)
      })
    })
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', () => done()))
    cleanups.push(() => new Promise((done) => http.close(done)))
    const connection = openHttp({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` })
    cleanups.push(() => connection.close())
    const exchange = await connection.request('ping', undefined, 20_000)
    expect(exchange.outcome).toMatchObject({ kind: 'reply', message: { result: { ok: true } } })
    expect(connection.noise).toEqual([
      expect.stringMatching(/an SSE event of \d+ bytes, over the message limit/),
    ])
  }, 600_000)
})
