import type { Readable, Writable } from 'node:stream'
import { LineSplitter, lineText, type OversizeLine, oversizeLineId } from '@dsh-harden/mcp-transport'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/**
 * The gateway's own side of stdio (what `dsh-harden mcp gateway` reads from its MCP client), through the repo's one
 * bounded line splitter instead of the SDK's `StdioServerTransport`, whose `ReadBuffer` grows without limit. A
 * request over the limit is answered with a JSON-RPC error naming its size (when its top-level `id` can be read from the
 * dropped line's edges: `oversizeLineId`, which never throws), and the connection carries on.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined

  readonly #input: Readable
  readonly #output: Writable
  readonly #lines: LineSplitter
  #started = false

  constructor(input: Readable, output: Writable, maxLineBytes?: number) {
    this.#input = input
    this.#output = output
    this.#lines = new LineSplitter({
      maxBytes: maxLineBytes,
      onLine: (line) => this.#receive(line),
      onOversize: (line) => this.#oversize(line),
    })
  }

  readonly #onData = (chunk: Buffer | string) =>
    this.#lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  readonly #onError = (error: Error) => this.onerror?.(error)

  async start(): Promise<void> {
    if (this.#started) throw new Error('BoundedStdioServerTransport already started')
    this.#started = true
    this.#input.on('data', this.#onData)
    this.#input.on('error', this.#onError)
  }

  #receive(line: Buffer): void {
    const text = lineText(line)
    if (text.trim() === '') return
    try {
      this.onmessage?.(deserializeMessage(text))
    } catch (error) {
      this.onerror?.(error as Error)
    }
  }

  #oversize(line: OversizeLine): void {
    const problem = `a message of ${line.bytes} bytes, over the gateway's limit`
    const id = oversizeLineId(line)
    if (id === undefined) {
      this.onerror?.(new Error(`${problem}; dropped (no request id could be read from its edges)`))
      return
    }
    void this.send({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: `${problem}; send less per request`, data: { bytes: line.bytes } },
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#output.write(serializeMessage(message))) resolve()
      else this.#output.once('drain', resolve)
    })
  }

  async close(): Promise<void> {
    this.#input.off('data', this.#onData)
    this.#input.off('error', this.#onError)
    this.onclose?.()
  }
}
