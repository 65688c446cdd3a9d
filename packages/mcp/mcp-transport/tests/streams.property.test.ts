import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { meterWork } from '../fixtures/index.ts'
import { LineSplitter, OVERSIZE_EDGE_BYTES, type OversizeLine, SseRewriter } from '../src/index.ts'

/** Cuts `bytes` at the given offsets (sorted, deduplicated, in range). */
function cut<T extends { length: number; slice(a: number, b?: number): T }>(
  whole: T,
  cuts: readonly number[],
): T[] {
  const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
  const pieces: T[] = []
  let at = 0
  for (const point of points) {
    pieces.push(whole.slice(at, point))
    at = point
  }
  pieces.push(whole.slice(at))
  return pieces
}

const MAX = 64
// Lines of printable ASCII and some multi-byte characters; some longer than MAX.
const line = fc.oneof(
  fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'b', '{', '"', ' ', '\r', 'é', '☃') }),
  fc.string({ minLength: MAX + 1, maxLength: 3 * MAX, unit: fc.constantFrom('x', 'y', 'é') }),
)

describe('LineSplitter (every stdio reader of ours)', () => {
  it('any chunking yields the same lines, byte for byte; oversize lines are reported, not delivered', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (lines, cuts) => {
        const input = Buffer.from(lines.map((l) => `${l}\n`).join(''))
        const got: string[] = []
        const oversize: OversizeLine[] = []
        const splitter = new LineSplitter({
          maxBytes: MAX,
          onLine: (l) => got.push(l.toString('utf8')),
          onOversize: (o) => oversize.push(o),
        })
        for (const piece of cut(input, cuts)) splitter.push(piece)
        splitter.end()
        const expected = lines.map((l) => `${l}\n`)
        expect(got).toEqual(expected.filter((l) => Buffer.byteLength(l) <= MAX))
        const big = expected.filter((l) => Buffer.byteLength(l) > MAX).map((l) => Buffer.from(l))
        expect(oversize.map((o) => o.bytes)).toEqual(big.map((b) => b.length))
        for (const [i, o] of oversize.entries()) {
          expect(o.head).toEqual(big[i]!.subarray(0, OVERSIZE_EDGE_BYTES))
          expect(o.tail).toEqual(big[i]!.subarray(-OVERSIZE_EDGE_BYTES))
        }
      }),
    )
  })

  it('a last line without a newline is delivered at end()', () => {
    const got: string[] = []
    const splitter = new LineSplitter({ onLine: (l) => got.push(l.toString()), onOversize: () => {} })
    splitter.push(Buffer.from('{"a":1}\n{"b"'))
    splitter.push(Buffer.from(':2}'))
    splitter.end()
    expect(got).toEqual(['{"a":1}\n', '{"b":2}'])
  })

  it('keeps at most the edges of an endless line (memory bounded by the limit, not the input)', () => {
    let reported: OversizeLine | undefined
    const splitter = new LineSplitter({ maxBytes: 1024, onLine: () => {}, onOversize: (o) => (reported = o) })
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    for (let i = 0; i < 64; i++) splitter.push(chunk)
    splitter.push(Buffer.from('\n'))
    expect(reported?.bytes).toBe(64 * 64 * 1024 + 1)
    expect(reported?.head.length).toBe(OVERSIZE_EDGE_BYTES)
  })
})

describe('LineSplitter work (counted, never timed)', () => {
  it('is linear in the bytes (n, 2n, 4n) and bounded per byte whatever the chunking, oversize lines included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            line,
            fc.integer({ min: 1, max: 6 * OVERSIZE_EDGE_BYTES }).map((n) => 'z'.repeat(n)),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.array(fc.constantFrom(1, 3, 64, 4096, 65_536), { minLength: 1, maxLength: 4 }),
        (lines, sizes) => {
          const base = Buffer.from(lines.map((l) => `${l}\n`).join(''))
          const once: Buffer[] = []
          for (let at = 0, i = 0; at < base.length; i++) {
            once.push(base.subarray(at, at + sizes[i % sizes.length]!))
            at += sizes[i % sizes.length]!
          }
          const totals = [1, 2, 4].map((copies) => {
            // The same stream, cut the same way, `copies` times over: n, 2n, 4n bytes.
            const pieces = Array.from({ length: copies }, () => once).flat()
            const bytes = { length: copies * base.length }
            const splitter = new LineSplitter({ maxBytes: MAX, onLine: () => {}, onOversize: () => {} })
            const work = meterWork(() => {
              for (const piece of pieces) splitter.push(piece)
            }).total
            // Searched once, held or kept once, joined once, plus the edges' bounded compaction.
            expect(work / bytes.length).toBeLessThanOrEqual(6)
            return work
          })
          expect(totals[1]! / totals[0]!).toBeLessThanOrEqual(2 * 1.1)
          expect(totals[2]! / totals[0]!).toBeLessThanOrEqual(4 * 1.1)
        },
      ),
      { numRuns: 60 },
    )
  })
})

const field = fc.constantFrom('event: message', 'id: 7', ': keep-alive', 'retry: 10')
const data = fc.string({ maxLength: 30, unit: fc.constantFrom('a', '{', '}', '"', ':', ' ', 'é') })
const event = fc.record({
  fields: fc.array(field, { maxLength: 2 }),
  data: fc.array(data, { minLength: 0, maxLength: 3 }),
  crlf: fc.boolean(),
})
type Event = { fields: string[]; data: string[]; crlf: boolean }
const render = (e: Event): string => {
  const end = e.crlf ? '\r\n' : '\n'
  return [...e.fields, ...e.data.map((d) => `data: ${d}`)].map((l) => l + end).join('') + end
}

describe('SseRewriter (the repair facade’s event streams)', () => {
  it('with nothing to rewrite, any chunking forwards the stream unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (events, cuts) => {
          const input = events.map(render).join('')
          const seen: string[] = []
          const sse = new SseRewriter({
            rewrite: (d) => {
              seen.push(d)
              return undefined
            },
            onOversize: () => 'DROPPED',
          })
          const out =
            cut(input, cuts)
              .map((piece) => sse.push(piece))
              .join('') + sse.rest()
          expect(out).toBe(input)
          expect(seen).toEqual(events.filter((e) => e.data.length > 0).map((e) => e.data.join('\n')))
        },
      ),
    )
  })

  it('a rewrite replaces exactly one event’s data, whatever the chunking; oversize events are replaced', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.nat({ max: 200 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (events, bigSize, cuts) => {
          const big: Event = { fields: ['event: message'], data: ['B'.repeat(bigSize)], crlf: false }
          const all = [...events, big, ...events]
          const input = all.map(render).join('')
          const max = 100
          const sse = new SseRewriter({
            rewrite: (d) => `<${d.length}>`,
            onOversize: (bytes) => `OVERSIZE ${bytes}\n\n`,
            maxBytes: max,
          })
          const out =
            cut(input, cuts)
              .map((piece) => sse.push(piece))
              .join('') + sse.rest()
          const expected = all
            .map((e) => {
              const text = render(e)
              if (Buffer.byteLength(text) > max) return `OVERSIZE ${Buffer.byteLength(text)}\n\n`
              if (e.data.length === 0) return text
              const end = e.crlf ? '\r\n' : '\n'
              const others = e.fields.map((f) => f + end).join('')
              return `${others}data: <${e.data.join('\n').length}>\n${end}`
            })
            .join('')
          expect(out).toBe(expected)
        },
      ),
    )
  })
})
