import { PassThrough } from 'node:stream'
import { OVERSIZE_EDGE_BYTES } from '@dsh-harden/mcp-transport'
import { meterWork } from '@dsh-harden/mcp-transport/fixtures'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BoundedStdioServerTransport } from '../src/stdio-server-transport.ts'

/**
 * The gateway's own stdin (`BoundedStdioServerTransport` in front of the SDK's real `Server`, as
 * `serveGatewayOverStdio` wires them) under random streams of valid, invalid and oversize requests, cut into random
 * chunks. A small line limit makes "oversize" cheap; oversize lines are still longer than both kept edges together,
 * so their head and tail are really cut apart.
 */
const MAX_LINE = 1024

type Item =
  | { readonly kind: 'valid'; readonly crlf: boolean }
  | { readonly kind: 'invalid'; readonly shape: 0 | 1 | 2 | 3 }
  | { readonly kind: 'blank' }
  | {
      readonly kind: 'oversize'
      readonly where: 'first' | 'last' | 'cut' | 'none'
      readonly length: number
      readonly end: string
    }

/** Longer than both kept edges together; its last character is one JSON escapes, or a multi-byte one. */
const padLength = fc.integer({ min: 2 * OVERSIZE_EDGE_BYTES + 1, max: 3 * OVERSIZE_EDGE_BYTES })
const padEnd = fc.constantFrom('x', 'é', '"', '\\', '{')

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('valid' as const), crlf: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('invalid' as const),
      shape: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'blank' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('oversize' as const),
      where: fc.constantFrom('first', 'last', 'cut', 'none') as fc.Arbitrary<
        'first' | 'last' | 'cut' | 'none'
      >,
      length: padLength,
      end: padEnd,
    }),
  },
)

interface Rendered {
  readonly bytes: Buffer
  /** Ids that must get exactly one `result` (a valid ping). */
  readonly answered: readonly number[]
  /** Ids that must get exactly one -32600 error naming the size (oversize, id readable at an edge). */
  readonly refused: readonly number[]
  /** Lines that must be reported through `onerror` and answered by nobody. */
  readonly reported: number
}

function render(items: readonly Item[]): Rendered {
  const lines: string[] = []
  const answered: number[] = []
  const refused: number[] = []
  let reported = 0
  items.forEach((entry, id) => {
    const pad = entry.kind === 'oversize' ? JSON.stringify(`${'x'.repeat(entry.length - 1)}${entry.end}`) : ''
    switch (entry.kind) {
      case 'valid':
        answered.push(id)
        lines.push(`{"jsonrpc":"2.0","id":${id},"method":"ping"}${entry.crlf ? '\r\n' : '\n'}`)
        return
      case 'blank':
        lines.push('  \n')
        return
      case 'invalid':
        reported++
        lines.push(
          [
            `{"jsonrpc":"2.0","id":${id},"method":\n`,
            `{"jsonrpc":"2.0","id":${id}}\n`,
            `not json ${id}\n`,
            `[{"jsonrpc":"2.0","id":${id},"method":"ping"\n`,
          ][entry.shape]!,
        )
        return
      case 'oversize':
        if (entry.where === 'first') {
          refused.push(id)
          lines.push(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"id":-1,"pad":${pad}}}\n`)
        } else if (entry.where === 'last') {
          refused.push(id)
          lines.push(`{"method":"tools/call","params":{"pad":${pad},"id":-1},"jsonrpc":"2.0","id":${id}}\n`)
        } else if (entry.where === 'cut') {
          // A string id that opens in the kept head and closes in the kept tail: unreadable, and never a crash.
          reported++
          lines.push(`{"jsonrpc":"2.0","method":"ping","id":${pad}}\n`)
        } else {
          reported++
          lines.push(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"pad":${pad}}}\n`)
        }
    }
  })
  return { bytes: Buffer.from(lines.join('')), answered, refused, reported }
}

/** Cuts `bytes` into consecutive chunks whose sizes cycle through `sizes`. */
function chunked(bytes: Buffer, sizes: readonly number[]): Buffer[] {
  const chunks: Buffer[] = []
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!
    chunks.push(bytes.subarray(at, at + size))
    at += size
  }
  return chunks
}

const chunkSizes = fc.array(fc.constantFrom(1, 2, 7, 64, 1000, 4096, 65_536), { minLength: 1, maxLength: 6 })

async function connected() {
  const input = new PassThrough()
  const output = new PassThrough()
  const transport = new BoundedStdioServerTransport(input, output, MAX_LINE)
  const server = new Server({ name: 'stdin-fuzz', version: '1' }, { capabilities: {} })
  const errors: Error[] = []
  server.onerror = (error) => errors.push(error)
  await server.connect(transport)
  const answers: { id: unknown; result?: unknown; error?: { code: number; message: string } }[] = []
  let text = ''
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8')
    const parts = text.split('\n')
    text = parts.pop() ?? ''
    for (const part of parts) answers.push(JSON.parse(part))
  })
  return { input, server, errors, answers }
}

describe('the gateway’s stdin under random streams (fast-check)', () => {
  it('never throws; every valid request gets exactly one answer, every readable oversize one exactly one error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 14 }), chunkSizes, async (items, sizes) => {
        const stream = render(items)
        const { input, server, errors, answers } = await connected()
        for (const chunk of chunked(stream.bytes, sizes)) input.write(chunk)
        const expected = stream.answered.length + stream.refused.length
        for (let turn = 0; turn < 200 && answers.length < expected; turn++)
          await new Promise((done) => setImmediate(done))
        // A few more turns: nothing else may arrive.
        for (let turn = 0; turn < 5; turn++) await new Promise((done) => setImmediate(done))
        const byId = new Map<unknown, typeof answers>()
        for (const answer of answers) byId.set(answer.id, [...(byId.get(answer.id) ?? []), answer])
        for (const id of stream.answered)
          expect(byId.get(id), `ping ${id}`).toEqual([{ jsonrpc: '2.0', id, result: {} }])
        for (const id of stream.refused) {
          expect(byId.get(id), `oversize ${id}`).toHaveLength(1)
          expect(byId.get(id)![0]!.error).toMatchObject({ code: -32600, message: /over the gateway's limit/ })
        }
        expect(answers).toHaveLength(expected)
        expect(errors).toHaveLength(stream.reported)
        await server.close()
      }),
      { numRuns: 60 },
    )
  }, 600_000)

  it('work is linear in the bytes read (n, 2n, 4n) and bounded per byte, however the stream is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 2, maxLength: 8 }), chunkSizes, async (items, sizes) => {
        const base = render(items).bytes
        const perByte: number[] = []
        const totals: number[] = []
        for (const copies of [1, 2, 4]) {
          // The same stream, cut the same way, `copies` times over: n, 2n, 4n bytes.
          const chunks = Array.from({ length: copies }, () => chunked(base, sizes)).flat()
          const bytes = { length: copies * base.length }
          const { input, server } = await connected()
          // Synchronous: the transport's whole reading path runs inside each 'data' event.
          const work = meterWork(() => {
            for (const chunk of chunks) input.emit('data', chunk)
          })
          await server.close()
          totals.push(work.total)
          perByte.push(work.total / bytes.length)
        }
        const [w1, w2, w4] = totals as [number, number, number]
        expect(w2 / w1).toBeLessThanOrEqual(2 * 1.1)
        expect(w4 / w1).toBeLessThanOrEqual(4 * 1.1)
        // Each byte is searched, kept or copied, decoded and parsed a bounded number of times.
        for (const ratio of perByte) expect(ratio).toBeLessThanOrEqual(8)
      }),
      { numRuns: 25 },
    )
  }, 600_000)
})
