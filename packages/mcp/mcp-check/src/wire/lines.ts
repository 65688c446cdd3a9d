import type { Readable } from 'node:stream'
import { LineSplitter, lineText, MAX_MESSAGE_BYTES } from '@dsh-harden/mcp-transport'

/**
 * Calls `onLine` with each non-blank line of `stream` (UTF-8, `\r\n` or `\n`): the framing of the MCP stdio
 * transport, newline-delimited JSON-RPC. A partial last line waits for its newline. Read through the repo's one
 * bounded splitter (`@dsh-harden/mcp-transport`'s `LineSplitter`): linear however the stream is chunked, and a line over
 * `maxBytes` goes to `onOversize` (its size) instead of growing memory.
 */
export function forEachLine(
  stream: Readable,
  onLine: (line: string) => void,
  options: { maxBytes?: number; onOversize?: (bytes: number) => void } = {},
): void {
  const splitter = new LineSplitter({
    maxBytes: options.maxBytes ?? MAX_MESSAGE_BYTES,
    onLine: (bytes) => {
      const line = lineText(bytes)
      if (line.trim() !== '') onLine(line)
    },
    onOversize: (line) => options.onOversize?.(line.bytes),
  })
  stream.on('data', (chunk: Buffer | string) =>
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
  )
}
