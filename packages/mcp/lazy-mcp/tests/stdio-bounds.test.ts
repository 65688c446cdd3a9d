import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { MAX_MESSAGE_BYTES } from '@dsh-harden/mcp-transport'
import { collectLines } from '@dsh-harden/mcp-transport/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { serveGatewayOverStdio } from '../src/index.ts'
import { TINY_SERVER, tempDir } from './servers.ts'

const CLI_BIN = fileURLToPath(new URL('../../../cli/bin/dsh-harden.js', import.meta.url))

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A gateway configuration naming the tiny FIXTURE server, in a temp dir removed after the test. */
async function tinyGatewayConfig(): Promise<{ file: string; dir: string }> {
  const temp = await tempDir()
  cleanups.push(temp.remove)
  const file = join(temp.dir, 'gateway.json')
  await writeFile(
    file,
    JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
  )
  return { file, dir: temp.dir }
}

const initialize = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`

/**
 * The answer to `id` among the gateway's output lines, polled a bounded number of times; `gone` says why waiting
 * is pointless (the process exited), so a dead gateway fails with its own words rather than "no answer".
 */
async function answerTo(
  lines: readonly string[],
  id: number,
  gone: () => string | undefined = () => undefined,
) {
  for (let poll = 0; poll < 600; poll++) {
    const found = lines.map((line) => JSON.parse(line)).find((message) => message.id === id)
    if (found) return found
    const why = gone()
    if (why !== undefined) throw new Error(why)
    await new Promise((done) => setTimeout(done, 25))
  }
  throw new Error(`no answer to ${id}${gone() ?? ''}`)
}

describe('the gateway’s own stdio input is bounded', () => {
  it('a request over the message limit gets a JSON-RPC error with its id; the next request is served', async () => {
    const config = await tinyGatewayConfig()
    const input = new PassThrough()
    const output = new PassThrough()
    const lines = collectLines(output)
    const gateway = await serveGatewayOverStdio({
      configFile: config.file,
      input,
      output,
      env: { PATH: process.env.PATH },
    })
    cleanups.push(() => gateway.close())
    const pad = 'x'.repeat(MAX_MESSAGE_BYTES)
    input.write(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mcp_servers","arguments":{"pad":"${pad}"}}}\n`,
    )
    expect(await answerTo(lines, 7)).toMatchObject({
      id: 7,
      error: { code: -32600, message: /over the gateway's limit/ },
    })
    input.write(initialize(8))
    expect(await answerTo(lines, 8)).toMatchObject({
      id: 8,
      result: { serverInfo: { name: 'dsh-harden-lazy-mcp' } },
    })
  }, 600_000)
})

describe('the standalone gateway process survives any oversize request', () => {
  it('an oversize line whose kept head and tail splice into bad JSON is dropped; the process answers the next requests', async () => {
    const config = await tinyGatewayConfig()
    // The real `dsh-harden mcp gateway` process, spoken to in raw JSON-RPC lines over its stdin.
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', 'gateway', '--config', config.file], {
      env: { PATH: process.env.PATH ?? '', HOME: config.dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const exited = new Promise<void>((done) => child.once('exit', () => done()))
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill()
      await exited
    })
    const lines = collectLines(child.stdout)
    const gone = () =>
      child.exitCode === null ? undefined : `the gateway exited (${child.exitCode}): ${stderr}`
    // A gateway that died shows as EPIPE on its stdin: fail with what it printed, not with an unhandled error.
    child.stdin.on('error', () => {})
    const write = (text: string) =>
      new Promise<void>((done, fail) =>
        child.stdin.write(text, (error) =>
          error
            ? fail(new Error(`the gateway stopped reading (${error.message}); its stderr: ${stderr}`))
            : done(),
        ),
      )
    // The string id opens inside the kept head and closes inside the kept tail: spliced, the head and tail read as
    // one string with a raw newline in it, which JSON.parse rejects (the SyntaxError that ended the process).
    await write(`{"jsonrpc":"2.0","method":"ping","id":"${'a'.repeat(MAX_MESSAGE_BYTES)}"}\n`)
    // The SDK writes `id` last; a nested "id" inside params is not the request's.
    const pad = 'x'.repeat(MAX_MESSAGE_BYTES)
    await write(
      `{"method":"tools/call","params":{"name":"mcp_servers","arguments":{"id":3,"pad":"${pad}"}},"jsonrpc":"2.0","id":9}\n`,
    )
    expect(await answerTo(lines, 9, gone)).toMatchObject({
      id: 9,
      error: { code: -32600, message: /over the gateway's limit/ },
    })
    await write(initialize(10))
    expect(await answerTo(lines, 10, gone)).toMatchObject({
      id: 10,
      result: { serverInfo: { name: 'dsh-harden-lazy-mcp' } },
    })
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([9, 10])
    expect({ exitCode: child.exitCode, signal: child.signalCode }).toEqual({ exitCode: null, signal: null })
    expect(stderr).not.toMatch(/SyntaxError|unexpected error/)
    // The unreadable one is named on stderr (its size, and why it got no answer).
    expect(stderr).toMatch(
      /a message of \d+ bytes, over the gateway's limit; dropped \(no request id could be read/,
    )
  }, 600_000)
})
