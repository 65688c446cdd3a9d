import { Edges, TEXT_UNITS } from './edges.ts'
import { MAX_MESSAGE_BYTES } from './lines.ts'

/**
 * A streaming `text/event-stream` rewriter for the repair facade. Each chunk is scanned once, from where the last one
 * ended (linear in the stream's length however it is chunked); an event is held only until its blank line; an event
 * over `maxBytes` is dropped as it streams and reported with its head and tail. Line ends `\n` and `\r\n` (the ones
 * the MCP SDKs write); a lone `\r` is kept as part of the line.
 */
export interface SseRewriterOptions {
  /** The joined `data:` of one event → its new data, or undefined to forward the event byte for byte. */
  readonly rewrite: (data: string) => string | undefined
  /** An event over `maxBytes`: its size and edges; the return value (an event's text, or '') replaces it. */
  readonly onOversize: (bytes: number, head: string, tail: string) => string
  readonly maxBytes?: number | undefined
}

export class SseRewriter {
  readonly #options: SseRewriterOptions
  readonly #max: number
  /** Fragments of the line being read. */
  #line: string[] = []
  /** Complete lines of the current event, each with its line end. */
  #event: string[] = []
  #size = 0
  #dropping: Edges<string> | undefined
  /** While dropping: the current line's first characters (up to 3), enough to tell a blank line that ends the event. */
  #droppedLine = ''

  constructor(options: SseRewriterOptions) {
    this.#options = options
    this.#max = options.maxBytes ?? MAX_MESSAGE_BYTES
  }

  /** Feeds one chunk; returns the text to forward now (complete events only). */
  push(chunk: string): string {
    let out = ''
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf('\n', start)
      const end = newline === -1 ? chunk.length : newline + 1
      const piece = chunk.slice(start, end)
      this.#count(piece)
      if (this.#dropping === undefined) this.#line.push(piece)
      if (newline !== -1) out += this.#lineDone()
      start = end
    }
    return out
  }

  /** The stream ended: whatever is held (an event without its blank line) is forwarded as it is. */
  rest(): string {
    if (this.#dropping !== undefined) return this.#finishOversize()
    const rest = this.#event.join('') + this.#line.join('')
    this.#event = []
    this.#line = []
    this.#size = 0
    return rest
  }

  #count(piece: string): void {
    this.#size += Buffer.byteLength(piece)
    if (this.#dropping !== undefined) {
      this.#dropping.add(piece)
      if (this.#droppedLine.length < 3) this.#droppedLine += piece.slice(0, 3)
      return
    }
    if (this.#size <= this.#max) return
    // Over the limit: from now on only the edges are kept; what was held is fed to them, never joined.
    this.#dropping = new Edges(TEXT_UNITS)
    for (const held of this.#event) this.#dropping.add(held)
    for (const held of this.#line) this.#dropping.add(held)
    this.#dropping.add(piece)
    this.#droppedLine = ''
    for (const held of [...this.#line, piece])
      if (this.#droppedLine.length < 3) this.#droppedLine += held.slice(0, 3)
    this.#event = []
    this.#line = []
  }

  #lineDone(): string {
    if (this.#dropping !== undefined) {
      // Only a blank line ends the dropped event; its own text is no longer held.
      const line = this.#droppedLine
      this.#droppedLine = ''
      return line.startsWith('\n') || line.startsWith('\r\n') ? this.#finishOversize() : ''
    }
    const line = this.#line.length === 1 ? this.#line[0]! : this.#line.join('')
    this.#line = []
    if (line !== '\n' && line !== '\r\n') {
      this.#event.push(line)
      return ''
    }
    const lines = this.#event
    this.#event = []
    this.#size = 0
    return this.#emit(lines, line)
  }

  #finishOversize(): string {
    const dropped = this.#dropping!
    const bytes = this.#size
    this.#dropping = undefined
    this.#droppedLine = ''
    this.#size = 0
    return this.#options.onOversize(bytes, dropped.head(), dropped.tail())
  }

  #emit(lines: readonly string[], blank: string): string {
    const raw = lines.join('') + blank
    const data: string[] = []
    const others: string[] = []
    for (const line of lines) {
      const bare = line.endsWith('\r\n') ? line.slice(0, -2) : line.slice(0, -1)
      if (bare.startsWith('data:')) data.push(bare.slice(bare.startsWith('data: ') ? 6 : 5))
      else others.push(line)
    }
    if (data.length === 0) return raw
    const rewritten = this.#options.rewrite(data.join('\n'))
    if (rewritten === undefined) return raw
    // Each line of the new data is its own `data:` line, so a newline inside it cannot end the event early.
    return `${others.join('')}${rewritten
      .split('\n')
      .map((part) => `data: ${part}\n`)
      .join('')}${blank}`
  }
}

/**
 * The value of the first `data:` field in the head of an event (what `onOversize` reports), so id recovery reads the
 * message and not the event's field names; '' when the head holds no `data:` line.
 */
export function eventDataHead(head: string): string {
  let value = 5
  if (!head.startsWith('data:')) {
    const line = head.indexOf('\ndata:')
    if (line === -1) return ''
    value = line + 6
  }
  return head.charCodeAt(value) === 0x20 ? head.slice(value + 1) : head.slice(value)
}
