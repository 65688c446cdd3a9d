import { type ChildProcess, spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import {
  CONNECTION_CLOSED,
  childEnvironment,
  describeSpawnError,
  edgeMessage,
  errorResponse,
  INTERNAL_ERROR,
  LineSplitter,
  MAX_PENDING_REQUESTS,
  type OversizeLine,
  oversizeLineId,
  oversizeLineMessage,
  RequestTracker,
  STDERR_TAIL_CHARS,
  stderrTail,
} from '@dsh-harden/mcp-transport'
import { excerpt, namedRequest, namesButDoesNotAnswer, STILL_WAITS } from './dropped-message.ts'
import { describeRepair, rewriteToolsListText } from './rewrite.ts'
import { answersText, type OpenRoute } from './route.ts'

/**
 * `dsh-harden mcp repair -- <command> [args…]`: the client talks to this process over stdio (newline-delimited
 * JSON-RPC, the MCP stdio transport), this process talks to the real server over its stdio. Client bytes go to the
 * server unchanged; server lines go to the client unchanged except `tools/list` responses that need a repair. With a
 * route, client lines are read before they are forwarded, so a `tools/call` to a wire name is mapped back first.
 */
export interface StdioRepairOptions {
  readonly command: string
  readonly args?: readonly string[] | undefined
  /** The server's own variables, set over the default environment (see `childEnvironment`). */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Parent variables the server may see beyond the default set. */
  readonly passEnv?: readonly string[] | undefined
  /** The environment the defaults and `passEnv` are read from (default `process.env`). */
  readonly parentEnv?: Readonly<Record<string, string | undefined>> | undefined
  readonly cwd?: string | undefined
  /** Where the server's stderr is copied (default `process.stderr`); its tail is kept for exit messages. */
  readonly stderr?: Writable | undefined
  /** Longest server line accepted (default 32 MiB); a longer answer becomes a JSON-RPC error to its request. */
  readonly maxLineBytes?: number | undefined
  /** What the client writes (default `process.stdin`). */
  readonly input?: Readable | undefined
  /** Where the client reads (default `process.stdout`). */
  readonly output?: Writable | undefined
  /** One line per event (default: `process.stderr`). */
  readonly log?: ((line: string) => void) | undefined
  /** The server's name in diagnostics (default: the command's base name). */
  readonly server?: string | undefined
  /** Serve the tools for this model route (`ToolRoute`); absent: repairs only, every client byte as sent. */
  readonly openRoute?: OpenRoute | undefined
}

export interface StdioRepair {
  readonly child: ChildProcess
  /** Resolves with the exit code to use once the upstream is gone and every pending request was answered. */
  readonly exited: Promise<number>
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
  const tracker = new RequestTracker({ maxPending: MAX_PENDING_REQUESTS })
  const route = options.openRoute?.(server)
  const child = spawn(options.command, [...(options.args ?? [])], {
    env: childEnvironment(options.parentEnv ?? process.env, { env: options.env, passEnv: options.passEnv }),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    ;(options.stderr ?? process.stderr).write(chunk)
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)
  })
  let clientEnded = false

  const write = (text: string | Buffer) => {
    if (!output.write(text)) {
      child.stdout?.pause()
      output.once('drain', () => child.stdout?.resume())
    }
  }

  const toServer = (bytes: Buffer | string) => {
    if (child.stdin?.writable && !child.stdin.write(bytes)) {
      input.pause()
      child.stdin.once('drain', () => input.resume())
    }
  }
  // Client → server: forward every byte as it arrives, reading the lines only to know which requests are pending.
  // With a route each line is forwarded once read: it may be a call to map back.
  const onClientLine = (line: Buffer) => {
    const parsed = parse(line.toString('utf8'))
    if (parsed.ok) tracker.sent(parsed.value)
    if (route === undefined) return
    const outbound = parsed.ok ? route.toServer(parsed.value) : { kind: 'same' as const }
    if (outbound.kind === 'same') toServer(line)
    else if (outbound.kind === 'changed') toServer(`${JSON.stringify(outbound.message)}\n`)
    else {
      tracker.answered(outbound.answers)
      write(`${answersText(outbound.answers)}\n`)
    }
  }
  const onClientOversize = (line: OversizeLine) => {
    // Still forwarded without a route: the server decides what to do with a request this large; we do not track it.
    if (route === undefined) {
      log(`the client sent a line of ${line.bytes} bytes; forwarded without reading it`)
      return
    }
    // With one its bytes are gone (only complete lines are forwarded), so its request is answered here.
    const id = oversizeLineId(line)
    log(`the client sent a line of ${line.bytes} bytes, over the limit; not forwarded`)
    if (id !== undefined)
      write(
        `${errorResponse(id, INTERNAL_ERROR, `dsh-harden mcp repair: a request of ${line.bytes} bytes is over the line limit; send a smaller one`, { bytes: line.bytes })}\n`,
      )
  }
  const fromClient = new LineSplitter({
    maxBytes: options.maxLineBytes,
    onLine: onClientLine,
    onOversize: onClientOversize,
  })
  const onInput = (chunk: Buffer) => {
    if (route === undefined) toServer(chunk)
    fromClient.push(chunk)
  }
  const onInputEnd = () => {
    clientEnded = true
    if (route !== undefined) fromClient.end()
    child.stdin?.end()
  }
  input.on('data', onInput)
  input.once('end', onInputEnd)
  child.stdin?.on('error', (error) => log(`writing to the upstream failed: ${error.message}`))

  // Server → client: lines pass as they are, unless they answer a pending tools/list and a tool needs a repair. A
  // line we cannot read is answered for only when it reads as the response to a pending request (then the server
  // has answered it and will not again); a line that merely ends in a request's id (a debug line echoing the
  // request) leaves the request to its real answer, or to the error the upstream's exit brings.
  const onOversizeServerLine = (line: OversizeLine) => {
    const owner = tracker.ownerOfDropped(oversizeLineMessage(line))
    if (owner === undefined) {
      log(`the upstream ${server} wrote a line of ${line.bytes} bytes, over the limit; dropped`)
      return
    }
    if (!owner.answered) {
      log(
        `the upstream ${server} wrote a line of ${line.bytes} bytes, over the limit, ${namesButDoesNotAnswer(owner.request)}: ${excerpt(line.head.toString('utf8'))}; dropped, ${STILL_WAITS}`,
      )
      return
    }
    const { id, method } = owner.request
    log(
      `the upstream ${server} answered ${namedRequest(owner.request)} with ${line.bytes} bytes, over the limit; answered the client with a JSON-RPC error`,
    )
    write(
      `${errorResponse(id, INTERNAL_ERROR, `dsh-harden mcp repair: the upstream MCP server's answer to ${method} is ${line.bytes} bytes, over the line limit`, { bytes: line.bytes })}\n`,
    )
  }
  const onUnreadableServerLine = (line: Buffer, text: string) => {
    const owner = tracker.ownerOfDropped(edgeMessage(text, text))
    if (owner === undefined) {
      log(
        `the upstream ${server} wrote a line that is not JSON (${line.length} bytes): ${excerpt(text)}; passed through as it is`,
      )
      write(line)
      return
    }
    if (!owner.answered) {
      log(
        `the upstream ${server} wrote a line that is not JSON (${line.length} bytes), ${namesButDoesNotAnswer(owner.request)}: ${excerpt(text)}; passed through as it is, ${STILL_WAITS}`,
      )
      write(line)
      return
    }
    const { id, method } = owner.request
    log(
      `the upstream ${server} answered ${namedRequest(owner.request)} with malformed JSON (${line.length} bytes): ${excerpt(text)}; answered the client with a JSON-RPC error`,
    )
    write(
      `${errorResponse(id, INTERNAL_ERROR, `dsh-harden mcp repair: the upstream MCP server answered ${method} with malformed JSON`, { bytes: line.length })}\n`,
    )
  }
  const onServerLine = (line: Buffer) => {
    if (tracker.size === 0) {
      write(line)
      return
    }
    const text = line.toString('utf8')
    const parsed = parse(text)
    if (!parsed.ok) {
      if (text.trim() === '') write(line)
      else onUnreadableServerLine(line, text)
      return
    }
    if (tracker.answersToolsList(parsed.value)) {
      const outcome = rewriteToolsListText(text, parsed.value, tracker.isToolsList, server, route)
      tracker.answered(parsed.value)
      for (const repair of outcome.repairs) log(describeRepair(repair))
      write(outcome.text === text ? line : `${outcome.text.replace(/\r?\n$/, '')}\n`)
      return
    }
    tracker.answered(parsed.value)
    write(line)
  }
  const fromServer = new LineSplitter({
    maxBytes: options.maxLineBytes,
    onLine: onServerLine,
    onOversize: onOversizeServerLine,
  })
  child.stdout?.on('data', (chunk: Buffer) => fromServer.push(chunk))

  const exited = new Promise<number>((resolve) => {
    let settled = false
    const finish = (code: number, why: string) => {
      if (settled) return
      settled = true
      fromServer.end()
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
      log(describeSpawnError(options.command, error))
      finish(127, 'could not be started')
    })
    child.once('close', (code, signal) => {
      const how = signal === null ? `code ${code}` : `signal ${signal}`
      // An exit the client did not ask for (stdin still open) is news: say so, with what the server last said.
      if (!clientEnded)
        log(
          `the upstream ${JSON.stringify(options.command)} exited (${how}) while the client was connected${stderrTail(stderr)}`,
        )
      finish(code ?? 1, `exited (${how})`)
    })
  })
  return { child, exited }
}
