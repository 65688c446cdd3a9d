import { LineSplitter, SseRewriter } from '@dsh-harden/mcp-transport'
import type { Comparison, Side } from './harness.ts'

/**
 * Linear time per byte for the readers every MCP connection of ours goes through: `LineSplitter` (stdio: repair
 * proxy, `mcp check`, lazy-mcp) and `SseRewriter` (the repair facade's event streams). Both sides read the same
 * number of bytes in the same 4 KiB chunks; the peer as 16 messages of 1 MiB, the subject as one message of 16 MiB.
 * A reader that rescans what it buffered per chunk would be ~thousands of times slower on the long message; a ratio
 * near 1 means time per byte does not grow with message length. (ops = bytes, so ns/op is ns per byte.)
 */
const CHUNK = 4096
const MESSAGES = 16
const SHORT = 1024 * 1024
const TOTAL = MESSAGES * SHORT

function chunks(text: string): Buffer[] {
  const bytes = Buffer.from(text)
  const out: Buffer[] = []
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK))
  return out
}

/** `count` newline-terminated lines of `length` bytes each. */
const jsonLines = (count: number, length: number) => `${`{"p":"${'x'.repeat(length - 9)}"}`}\n`.repeat(count)

/** `count` SSE events whose data is `length` bytes each. */
const sseEvents = (count: number, length: number) =>
  `event: message\ndata: ${'x'.repeat(length)}\n\n`.repeat(count)

function linesSide(label: string, text: string): Side {
  return {
    label,
    prepare() {
      const parts = chunks(text)
      let seen = 0
      const splitter = new LineSplitter({
        maxBytes: 2 * TOTAL,
        onLine: (line) => {
          seen += line.length
        },
        onOversize: () => {},
      })
      return {
        run: () => {
          for (const part of parts) splitter.push(part)
        },
        dispose: () => {
          if (seen !== TOTAL) throw new Error(`LineSplitter delivered ${seen} of ${TOTAL} bytes`)
        },
      }
    },
  }
}

function sseSide(label: string, text: string): Side {
  return {
    label,
    prepare() {
      const parts = chunks(text).map((part) => part.toString('latin1'))
      let events = 0
      const sse = new SseRewriter({
        maxBytes: 2 * TOTAL,
        rewrite: () => {
          events++
          return undefined
        },
        onOversize: () => '',
      })
      return {
        run: () => {
          for (const part of parts) sse.push(part)
        },
        dispose: () => {
          if (events === 0) throw new Error('SseRewriter delivered no event')
        },
      }
    },
  }
}

export function streamReaderComparisons(): Comparison[] {
  const common = { opsPerSample: TOTAL, warmup: 2, rounds: 20 }
  return [
    {
      name: 'stdio line splitter: one 16 MiB line vs 16 × 1 MiB lines (ns per byte)',
      peer: linesSide('16 × 1 MiB lines', jsonLines(MESSAGES, SHORT)),
      subject: linesSide('1 × 16 MiB line', jsonLines(1, TOTAL)),
      ...common,
      notes: ['4 KiB chunks; a ratio near 1 = linear in the line length'],
    },
    {
      name: 'SSE rewriter: one 16 MiB event vs 16 × 1 MiB events (ns per byte)',
      peer: sseSide('16 × 1 MiB events', sseEvents(MESSAGES, SHORT - 24)),
      subject: sseSide('1 × 16 MiB event', sseEvents(1, TOTAL - 24)),
      ...common,
      notes: ['4 KiB chunks; a ratio near 1 = linear in the event length'],
    },
  ]
}
