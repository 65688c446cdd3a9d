import { PassThrough } from 'node:stream'
import { collectLines } from '@dsh-harden/mcp-transport/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { STDIO_REPAIR_ENTRY, STDOUT_LOG_SERVER } from '../fixtures/index.ts'
import { startStdioRepair } from '../src/index.ts'
import { RawPeer } from './raw-stdio.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const proxied = ['--server', 'stdout-log', '--', process.execPath, STDOUT_LOG_SERVER]

/** Requests as the official SDK client writes them: `id` last, so a line that ends in one ends like an answer. */
const request = (id: number, method: string, params?: object) => ({
  method,
  ...(params === undefined ? {} : { params }),
  jsonrpc: '2.0',
  id,
})
const INITIALIZE = request(0, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw', version: '1' },
})

/** The JSON-RPC responses to `id` among output lines (the debug lines are not JSON and are skipped). */
function responsesTo(lines: readonly string[], id: number): unknown[] {
  return lines.flatMap((line) => {
    try {
      const message = JSON.parse(line) as { id?: unknown; method?: unknown }
      return message.id === id && message.method === undefined ? [message] : []
    } catch {
      return []
    }
  })
}

/** The proxy in-process in front of the FIXTURE server, with its log and output lines collected. */
function inProcess(maxLineBytes?: number) {
  const input = new PassThrough()
  const output = new PassThrough()
  const lines = collectLines(output)
  const log: string[] = []
  const repair = startStdioRepair({
    command: process.execPath,
    args: [STDOUT_LOG_SERVER],
    server: 'stdout-log',
    input,
    output,
    maxLineBytes,
    stderr: new PassThrough(),
    log: (line) => log.push(line),
  })
  return {
    log,
    send: (message: object) => input.write(`${JSON.stringify(message)}\n`),
    /** Waits (bounded) until a response to `id` arrived. */
    answered: async (id: number) => {
      for (let i = 0; i < 400 && responsesTo(lines, id).length === 0; i++)
        await new Promise((done) => setTimeout(done, 25))
    },
    /** Every response to `id` so far. */
    responses: (id: number) => responsesTo(lines, id),
    /** Ends the client side; resolves with the exit code once the server's output has all been read. */
    stop: async () => {
      input.end()
      const code = await repair.exited
      await new Promise((done) => setImmediate(done))
      return code
    },
  }
}

describe('a server that logs each request to stdout before answering it (FIXTURE: stdout-log-server.ts)', () => {
  it('the SDK client through the proxy gets one answer per request, the real one: initialize, tools/list, tools/call', async () => {
    const client = new Client({ name: 'strict-client', version: '1' })
    const errors: Error[] = []
    client.onerror = (error) => errors.push(error)
    cleanups.push(() => client.close())
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [STDIO_REPAIR_ENTRY, ...proxied],
        stderr: 'pipe',
      }),
      { timeout: 600_000 },
    )
    expect(client.getServerVersion()?.name).toBe('stdout-log-fixture')
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo'])
    const called = await client.callTool({ name: 'echo', arguments: { text: 'real answer' } })
    expect(called.content).toEqual([{ type: 'text', text: 'real answer' }])
    // A second answer to a request reaches the client as "a response for an unknown message ID".
    expect(errors.map((error) => error.message).filter((text) => /unknown message ID/.test(text))).toEqual([])
  }, 600_000)

  it('the client reads the same lines through the proxy as straight from the server (raw, SDK-shaped requests)', async () => {
    const direct = new RawPeer(process.execPath, [STDOUT_LOG_SERVER])
    const proxy = new RawPeer(process.execPath, [STDIO_REPAIR_ENTRY, ...proxied])
    cleanups.push(
      () => direct.stop(),
      () => proxy.stop(),
    )
    const isAnswer = (id: number) => (line: string) => line.startsWith(`{"jsonrpc":"2.0","id":${id},`)
    for (const peer of [direct, proxy]) {
      peer.send(INITIALIZE)
      await peer.line(isAnswer(0))
      peer.send({ method: 'notifications/initialized', jsonrpc: '2.0' })
      peer.send(request(1, 'tools/list'))
      peer.send(request(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }))
      await peer.line(isAnswer(2))
      // Everything either one writes is read before comparing: the client side ends, both exit on their own.
      peer.child.stdin!.end()
      expect(await peer.closed).toBe(0)
    }
    expect(proxy.lines).toEqual(direct.lines)
    for (const id of [0, 1, 2]) expect(responsesTo(proxy.lines, id)).toHaveLength(1)
    expect(proxy.lines.filter((line) => line.startsWith('debug: got '))).toHaveLength(4)
  }, 600_000)

  it('each debug line is logged naming the server and the request it names; the request waits for its answer', async () => {
    const proxy = inProcess()
    proxy.send(request(1, 'tools/list'))
    await proxy.answered(1)
    expect(await proxy.stop()).toBe(0)
    expect(proxy.responses(1)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { tools: [expect.objectContaining({ name: 'echo' })] } },
    ])
    expect(proxy.log).toEqual([
      'the upstream stdout-log wrote a line that is not JSON (58 bytes), naming the pending tools/list (id 1) but not an answer to it: "debug: got {\\"method\\":\\"tools/list\\",\\"jsonrpc\\":\\"2.0\\",\\"id\\":1}"; passed through as it is, the request still waits for its answer',
    ])
  }, 600_000)

  it('a debug line over the line limit is dropped but not taken for the answer: the real answer still arrives', async () => {
    const call = request(1, 'tools/call', { name: 'echo', arguments: { text: 'y'.repeat(2000) } })
    // The request itself is under the limit (so it is tracked); "debug: got " + the request is over it.
    const proxy = inProcess(JSON.stringify(call).length + 6)
    proxy.send(call)
    await proxy.answered(1)
    expect(await proxy.stop()).toBe(0)
    expect(proxy.responses(1)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'y'.repeat(2000) }] } },
    ])
    const debugLine = `debug: got ${JSON.stringify(call)}`
    expect(proxy.log).toEqual([
      `the upstream stdout-log wrote a line of ${debugLine.length + 1} bytes, over the limit, naming the pending tools/call (id 1) but not an answer to it: ${JSON.stringify(`${debugLine.slice(0, 80)}…`)}; dropped, the request still waits for its answer`,
    ])
  }, 600_000)

  it('a request a debug line named whose answer never comes is answered once, when the server exits', async () => {
    const proxy = new RawPeer(process.execPath, [STDIO_REPAIR_ENTRY, ...proxied])
    cleanups.push(() => proxy.stop())
    proxy.send(INITIALIZE)
    await proxy.line((line) => line.startsWith('{"jsonrpc":"2.0","id":0,'))
    proxy.send(request(9, 'tools/call', { name: 'exit', arguments: {} }))
    expect(await proxy.closed).toBe(5)
    expect(responsesTo(proxy.lines, 9)).toEqual([
      {
        jsonrpc: '2.0',
        id: 9,
        error: {
          code: -32000,
          message:
            'dsh-harden mcp repair: the upstream MCP server exited (code 5) before answering tools/call',
        },
      },
    ])
  }, 600_000)
})
