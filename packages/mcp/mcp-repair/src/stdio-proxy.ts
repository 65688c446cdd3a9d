import { type ChildProcess, spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { describeRepair, rewriteToolsListText } from './rewrite.ts'
import { CONNECTION_CLOSED, errorResponse, INTERNAL_ERROR, idOfMalformed, RequestTracker } from './tracker.ts'

/**
 * `dsh-harden mcp repair -- <command> [args…]`: the client talks to this process over stdio (newline-delimited
 * JSON-RPC, the MCP stdio transport), this process talks to the real server over its stdio. Client bytes go to the
 * server unchanged; server lines go to the client unchanged except `tools/list` responses that need a repair.
 */
export interface StdioRepairOptions {
  readonly command: string
  readonly args?: readonly string[] | undefined
  readonly env?: NodeJS.ProcessEnv | undefined
  readonly cwd?: string | undefined
  /** What the client writes (default `process.stdin`). */
  readonly input?: Readable | undefined
  /** Where the client reads (default `process.stdout`). */
  readonly output?: Writable | undefined
  /** One line per event (default: `process.stderr`). */
  readonly log?: ((line: string) => void) | undefined
  /** The server's name in diagnostics (default: the command's base name). */
  readonly server?: string | undefined
}

export interface StdioRepair {
  readonly child: ChildProcess
  /** Resolves with the exit code to use once the upstream is gone and every pending request was answered. */
  readonly exited: Promise<number>
}

/** Splits a byte stream into lines without re-scanning what was already searched (a 10 MB line stays linear). */
class LineSplitter {
  private parts: Buffer[] = []

  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(0x0a, start)
      if (newline === -1) break
      const piece = chunk.subarray(start, newline + 1)
      if (this.parts.length === 0) onLine(piece)
      else {
        this.parts.push(piece)
        onLine(Buffer.concat(this.parts))
        this.parts = []
      }
      start = newline + 1
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start))
  }

  rest(): Buffer | undefined {
    if (this.parts.length === 0) return undefined
    const rest = Buffer.concat(this.parts)
    this.parts = []
    return rest
  }
}

function parse(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(line) }
  } catch {
    return { ok: false }
  }
}

const stderrLog = (line: string) => process.stderr.write(`dsh-harden mcp repair: ${line}\n`)

export function startStdioRepair(options: StdioRepairOptions): StdioRepair {
  const input = options.input ?? process.stdin
  const output = options.output ?? process.stdout
  const log = options.log ?? stderrLog
  const server = options.server ?? options.command.split(/[\\/]/).pop() ?? options.command
  const tracker = new RequestTracker()
  const child = spawn(options.command, [...(options.args ?? [])], {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
  })

  const write = (text: string | Buffer) => {
    if (!output.write(text)) {
      child.stdout?.pause()
      output.once('drain', () => child.stdout?.resume())
    }
  }

  // Client → server: forward every byte as it arrives; read the lines only to know which requests are pending.
  const fromClient = new LineSplitter()
  const onInput = (chunk: Buffer) => {
    if (child.stdin?.writable && !child.stdin.write(chunk)) {
      input.pause()
      child.stdin.once('drain', () => input.resume())
    }
    fromClient.push(chunk, (line) => {
      const parsed = parse(line.toString('utf8'))
      if (parsed.ok) tracker.sent(parsed.value)
    })
  }
  const onInputEnd = () => child.stdin?.end()
  input.on('data', onInput)
  input.once('end', onInputEnd)
  child.stdin?.on('error', (error) => log(`writing to the upstream failed: ${error.message}`))

  // Server → client: lines pass as they are, unless they answer a pending tools/list and a tool needs a repair.
  const fromServer = new LineSplitter()
  const onServerLine = (line: Buffer) => {
    if (tracker.size === 0) {
      write(line)
      return
    }
    const text = line.toString('utf8')
    const parsed = parse(text)
    if (!parsed.ok) {
      if (text.trim() === '') {
        write(line)
        return
      }
      const owner = idOfMalformed(text, tracker)
      if (owner === undefined) {
        log(`the upstream wrote a line that is not JSON (${line.length} bytes); passed through as it is`)
        write(line)
        return
      }
      log(
        `the upstream answered ${owner.method} (id ${JSON.stringify(owner.id)}) with malformed JSON (${line.length} bytes); answered the client with a JSON-RPC error`,
      )
      write(
        `${errorResponse(owner.id, INTERNAL_ERROR, `dsh-harden mcp repair: the upstream MCP server answered ${owner.method} with malformed JSON`, { bytes: line.length })}\n`,
      )
      return
    }
    if (tracker.answersToolsList(parsed.value)) {
      const outcome = rewriteToolsListText(text, parsed.value, tracker.isToolsList, server)
      tracker.answered(parsed.value)
      for (const repair of outcome.repairs) log(describeRepair(repair))
      write(outcome.text === text ? line : `${outcome.text.replace(/\r?\n$/, '')}\n`)
      return
    }
    tracker.answered(parsed.value)
    write(line)
  }
  child.stdout?.on('data', (chunk: Buffer) => fromServer.push(chunk, onServerLine))

  const exited = new Promise<number>((resolve) => {
    let settled = false
    const finish = (code: number, why: string) => {
      if (settled) return
      settled = true
      const rest = fromServer.rest()
      if (rest !== undefined) onServerLine(rest)
      const orphans = tracker.drain()
      for (const request of orphans)
        write(
          `${errorResponse(request.id, CONNECTION_CLOSED, `dsh-harden mcp repair: the upstream MCP server ${why} before answering ${request.method}`)}\n`,
        )
      if (orphans.length > 0)
        log(`the upstream ${why}; answered ${orphans.length} pending request(s) with a JSON-RPC error`)
      input.off('data', onInput)
      input.off('end', onInputEnd)
      input.pause()
      resolve(code)
    }
    child.once('error', (error) => {
      log(`could not start the upstream ${JSON.stringify(options.command)}: ${error.message}`)
      finish(127, 'could not be started')
    })
    child.once('close', (code, signal) => {
      finish(code ?? 1, `exited (${signal === null ? `code ${code}` : `signal ${signal}`})`)
    })
  })
  return { child, exited }
}
