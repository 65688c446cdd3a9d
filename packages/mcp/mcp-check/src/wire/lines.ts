import type { Readable } from 'node:stream'

/**
 * Calls `onLine` with each non-blank line of `stream` (UTF-8, `\r\n` or `\n`): the framing of the MCP stdio
 * transport, newline-delimited JSON-RPC. A partial last line waits for its newline.
 */
export function forEachLine(stream: Readable, onLine: (line: string) => void): void {
  let buffered = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    buffered += chunk
    let newline = buffered.indexOf('\n')
    while (newline !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, '')
      buffered = buffered.slice(newline + 1)
      newline = buffered.indexOf('\n')
      if (line.trim() !== '') onLine(line)
    }
  })
}
