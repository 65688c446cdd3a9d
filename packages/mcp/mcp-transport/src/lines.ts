import { BYTE_UNITS, Edges, OVERSIZE_EDGE_BYTES } from './edges.ts'

/**
 * The one newline splitter for the MCP stdio transport (newline-delimited JSON-RPC) in this repo: the repair proxy,
 * `mcp check` and the lazy-mcp gateway all read child output through it. Linear in the bytes read (each byte is
 * searched once, a long line is joined once), and bounded: a line over `maxBytes` is dropped as it streams, so a
 * server that never writes a newline cannot grow our memory; the caller hears about it with the line's head and tail
 * (enough to find its JSON-RPC `id`: `oversizeLineId` in `message-id.ts`) and the stream carries on with the next line.
 */

/** The largest message any reader of ours accepts: a stdio line, an HTTP body, one SSE event. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024

/** A line that was dropped for its size. */
export interface OversizeLine {
  /** The line's full length in bytes, newline included when there was one. */
  readonly bytes: number
  /** Its first bytes (at most {@link OVERSIZE_EDGE_BYTES}). */
  readonly head: Buffer
  /** Its last bytes (at most {@link OVERSIZE_EDGE_BYTES}). */
  readonly tail: Buffer
}

export interface LineSplitterOptions {
  /** Each complete line, its `\n` (and any `\r`) included, so a proxy can forward it byte for byte. */
  readonly onLine: (line: Buffer) => void
  /** A line longer than `maxBytes`, after its newline arrived (or at `end()`). */
  readonly onOversize: (line: OversizeLine) => void
  /** Default {@link MAX_MESSAGE_BYTES}. */
  readonly maxBytes?: number | undefined
}

export class LineSplitter {
  readonly #onLine: (line: Buffer) => void
  readonly #onOversize: (line: OversizeLine) => void
  readonly #max: number
  #parts: Buffer[] = []
  #size = 0
  /** Set while dropping an oversize line: what is kept of it. */
  #dropping: Edges<Buffer> | undefined

  constructor(options: LineSplitterOptions) {
    this.#onLine = options.onLine
    this.#onOversize = options.onOversize
    this.#max = options.maxBytes ?? MAX_MESSAGE_BYTES
  }

  push(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start)
      const end = newline === -1 ? chunk.length : newline + 1
      this.#take(chunk.subarray(start, end))
      if (newline !== -1) this.#complete()
      start = end
    }
  }

  /** The stream ended: a last line without a newline is delivered as it is. */
  end(): void {
    if (this.#size > 0) this.#complete()
  }

  #take(piece: Buffer): void {
    this.#size += piece.length
    if (this.#dropping !== undefined) {
      this.#dropping.add(piece)
      return
    }
    this.#parts.push(piece)
    if (this.#size <= this.#max) return
    // Over the limit: from now on only the edges are kept; what was held is fed to them, never joined.
    this.#dropping = new Edges(BYTE_UNITS)
    for (const part of this.#parts) this.#dropping.add(part)
    this.#parts = []
  }

  #complete(): void {
    const dropped = this.#dropping
    const bytes = this.#size
    const parts = this.#parts
    this.#parts = []
    this.#size = 0
    this.#dropping = undefined
    if (dropped !== undefined) this.#onOversize({ bytes, head: dropped.head(), tail: dropped.tail() })
    else this.#onLine(parts.length === 1 ? parts[0]! : Buffer.concat(parts))
  }
}

/** A complete line's text without its line end (`\n` or `\r\n`), decoded once, nothing else scanned. */
export function lineText(line: Buffer): string {
  let end = line.length
  if (line[end - 1] === 0x0a) end--
  if (line[end - 1] === 0x0d) end--
  return line.toString('utf8', 0, end)
}
