import { request as httpRequest } from 'node:http'
import { type RawResponse, rawRequest } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startHttpRepair } from '../src/index.ts'
import { answer, type Script, startRawUpstream } from './raw-http-upstream.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const LIMIT = 64 * 1024
const BROKEN_TOOL = { name: 'status', description: 'no arguments', inputSchema: {} }

async function facade(script: Script, options: { requestTimeoutMs?: number } = {}) {
  const upstream = await startRawUpstream(script)
  cleanups.push(() => upstream.close())
  const lines: string[] = []
  const repair = await startHttpRepair({
    upstream: upstream.url,
    maxBodyBytes: LIMIT,
    log: (line) => lines.push(line),
    ...options,
  })
  cleanups.push(() => repair.close())
  return { upstream, repair, lines }
}

/** Lets real I/O run for `count` turns of the event loop (setImmediate is never faked here). */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((done) => setImmediate(done))
}

/** Real event-loop turns until `check` holds; a bounded number of them, then a failure naming what never happened. */
async function turnsUntil(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 100_000 && !check(); turn++) await new Promise((done) => setImmediate(done))
  if (!check()) throw new Error(`${what} never happened`)
}

const call = (id: number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params })

/** Answers tools/list with `tools` as JSON or as one SSE event; `big` answers with `bytes` characters. */
const scripted =
  (mode: 'json' | 'sse'): Script =>
  (message, res) => {
    const result =
      message.method === 'tools/list'
        ? { tools: [BROKEN_TOOL] }
        : { content: [{ type: 'text', text: 'x'.repeat(message.method === 'big' ? 2 * LIMIT : 3) }] }
    const text = answer(message.id, result)
    if (mode === 'json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(message.method === 'big' ? answer(message.id, { tools: [], pad: 'y'.repeat(2 * LIMIT) }) : text)
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    // Written in small pieces so the rewriter sees the event across many chunks.
    for (let at = 0; at < text.length; at += 7000)
      res.write(`${at === 0 ? 'event: message\ndata: ' : ''}${text.slice(at, at + 7000)}`)
    res.end('\n\n')
  }

describe('repair facade: bounded readers and an upstream timeout', () => {
  it('a request body over the limit is a 413 with a JSON-RPC error; the facade keeps serving', async () => {
    const { repair, upstream } = await facade(scripted('json'))
    const big = await rawRequest(repair.url, { body: call(1, 'tools/call', { pad: 'z'.repeat(2 * LIMIT) }) })
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body)).toMatchObject({ error: { message: /over 65536 bytes/ } })
    expect(upstream.seen).toEqual([])
    const next = await rawRequest(repair.url, { body: call(2, 'tools/list') })
    expect(next.status).toBe(200)
  })

  it('a buffered tools/list answer over the limit: a JSON-RPC error to that request; the next one works', async () => {
    const { repair, lines } = await facade((message, res) =>
      scripted('json')(
        { ...message, method: message.id === 1 ? 'big' : message.method },
        res,
        undefined as never,
      ),
    )
    const big = await rawRequest(repair.url, { body: call(1, 'tools/list') })
    expect(big.status).toBe(502)
    expect(JSON.parse(big.body)).toMatchObject({ id: 1, error: { message: /over 65536 bytes/ } })
    expect(lines.some((line) => line.includes('over 65536 bytes'))).toBe(true)
    const next = await rawRequest(repair.url, { body: call(2, 'tools/list') })
    expect(JSON.parse(next.body).result.tools[0].inputSchema).toEqual({ type: 'object', properties: {} })
  })

  it('an SSE event over the limit: its request gets a JSON-RPC error event, the stream goes on', async () => {
    const { repair } = await facade((message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`event: message\ndata: ${answer(message.id, { pad: 'p'.repeat(2 * LIMIT) })}\n\n`)
      res.end(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}\n\n`,
      )
    })
    const response = await rawRequest(repair.url, { body: call(7, 'tools/call') })
    const events = response.body.split('\n\n').filter((event) => event.trim() !== '')
    expect(events).toHaveLength(2)
    expect(JSON.parse(events[0]!.split('data: ')[1]!)).toMatchObject({
      id: 7,
      error: { message: /tools\/call is \d+ bytes, over the 65536-byte limit/ },
    })
    expect(events[1]).toContain('notifications/message')
  })

  it('an SSE event over the limit that only names a pending id (a server request reusing it) is no answer to it', async () => {
    const { repair, lines } = await facade((message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      // Server-to-client requests number their ids on their own, so 7 may be the client's pending request too.
      const sampling = {
        method: 'sampling/createMessage',
        params: { pad: 'p'.repeat(2 * LIMIT) },
        jsonrpc: '2.0',
      }
      res.write(`event: message\ndata: ${JSON.stringify({ ...sampling, id: message.id })}\n\n`)
      res.end(`event: message\ndata: ${answer(message.id, { content: [] })}\n\n`)
    })
    const response = await rawRequest(repair.url, { body: call(7, 'tools/call') })
    const events = response.body.split('\n\n').filter((event) => event.trim() !== '')
    expect(events.map((event) => JSON.parse(event.split('data: ')[1]!))).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [] } },
    ])
    expect(lines).toEqual([
      expect.stringMatching(
        /^the upstream sent an event of \d+ bytes, over 65536, naming the pending tools\/call \(id 7\) but not an answer to it; dropped, the request still waits for its answer$/,
      ),
    ])
  })

  it('tools/list answered on SSE in small chunks is rewritten whole', async () => {
    const { repair, lines } = await facade(scripted('sse'))
    const response = await rawRequest(repair.url, { body: call(3, 'tools/list') })
    const data = response.body.split('data: ')[1]!.trim()
    expect(JSON.parse(data).result.tools[0].inputSchema).toEqual({ type: 'object', properties: {} })
    expect(lines).toEqual([expect.stringMatching(/^repaired 1 of 1 tools: status \(inputSchema/)])
  })

  it('a tools/list answer on the standalone GET stream (a resumed stream) is rewritten too', async () => {
    const { repair, upstream } = await facade((message, res, up) => {
      // Accept the POST and answer on the GET stream, as a server resuming a broken stream does.
      res.writeHead(202)
      res.end()
      up.getStream?.write(`id: 1\nevent: message\ndata: ${answer(message.id, { tools: [BROKEN_TOOL] })}\n\n`)
    })
    let streamed = ''
    const got = new Promise<void>((done, fail) => {
      const get = httpRequest(
        repair.url,
        { method: 'GET', headers: { accept: 'text/event-stream' } },
        (res) => {
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            streamed += chunk
            if (streamed.includes('\n\n')) done()
          })
        },
      )
      get.on('error', fail)
      get.end()
      cleanups.push(async () => get.destroy())
    })
    for (let i = 0; i < 100 && upstream.getStream === undefined; i++)
      await new Promise((r) => setTimeout(r, 20))
    const posted = await rawRequest(repair.url, { body: call(11, 'tools/list') })
    expect(posted.status).toBe(202)
    await got
    expect(streamed).toMatch(/^id: 1\nevent: message\ndata: /)
    expect(JSON.parse(streamed.split('data: ')[1]!).result.tools[0].inputSchema).toEqual({
      type: 'object',
      properties: {},
    })
  })

  it('an upstream that stays silent: after exactly requestTimeoutMs (fake clock) the request gets a JSON-RPC timeout error', async () => {
    const { upstream, repair, lines } = await facade(() => {}, { requestTimeoutMs: 300 })
    // Only the timers are fake; sockets and setImmediate are real, so the request really travels.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let response: RawResponse | undefined
      // Settled only by the answer; a reset socket (after a failed assertion's cleanup) is not a second failure.
      const pending = rawRequest(repair.url, { body: call(5, 'tools/call') }).then(
        (got) => {
          response = got
        },
        () => {},
      )
      await turnsUntil(() => upstream.seen.length === 1, 'the request reaching the upstream')
      vi.advanceTimersByTime(299)
      await turns(50)
      expect(response).toBeUndefined() // 299 ms of silence: still waiting
      vi.advanceTimersByTime(1)
      await turnsUntil(() => response !== undefined, 'an answer at 300 ms')
      await pending
      expect(response?.status).toBe(504)
      expect(JSON.parse(response!.body)).toMatchObject({
        id: 5,
        error: { code: -32001, message: /nothing for 300 ms/ },
      })
      expect(lines.some((line) => line.includes('sent nothing for 300 ms'))).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('silence after SSE headers: the waiting request gets a timeout event, then the stream ends', async () => {
    const { repair } = await facade(
      (_message, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.flushHeaders()
      },
      { requestTimeoutMs: 300 },
    )
    const response = await rawRequest(repair.url, { body: call(6, 'tools/call') })
    expect(JSON.parse(response.body.split('data: ')[1]!)).toMatchObject({ id: 6, error: { code: -32001 } })
  })
})
