import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  edgeId,
  edgeMessage,
  eventDataHead,
  LineSplitter,
  OVERSIZE_EDGE_BYTES,
  type OversizeLine,
  oversizeLineId,
  RequestTracker,
} from '../src/index.ts'

const id = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.string({ maxLength: 20, unit: fc.constantFrom('a', '7', '"', '\\', '\n', 'é', '☃', '\u0000') }),
)
/** Member values, nested ones holding an `id` of their own that must never be taken for the message's. */
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 10, unit: fc.constantFrom('x', '"', '\\', '}', '{', ',', ':', 'id') }),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('id', 'a', 'b'), tie('value'), { maxKeys: 3 }),
  ),
})).value
/** The padding that makes a message longer than both edges, at any member position. */
const pad = fc.constantFrom('', 'p'.repeat(3 * OVERSIZE_EDGE_BYTES))

/** A JSON-RPC message whose top-level `id` sits first, last or in the middle, as the writer chose. */
const message = fc.record({
  id,
  position: fc.constantFrom('first', 'middle', 'last'),
  before: fc.dictionary(fc.constantFrom('jsonrpc', 'method', 'params'), value, { maxKeys: 3 }),
  after: fc.dictionary(fc.constantFrom('result', 'error', 'params'), value, { maxKeys: 2 }),
  pad,
  spaced: fc.boolean(),
})
type Message = typeof message extends fc.Arbitrary<infer T> ? T : never

function render(m: Message): string {
  const members: [string, unknown][] = [
    ...Object.entries(m.before),
    ['pad', m.pad],
    ...Object.entries(m.after),
  ]
  const at = m.position === 'first' ? 0 : m.position === 'last' ? members.length : 1
  members.splice(at, 0, ['id', m.id])
  const text = JSON.stringify(Object.fromEntries(members), null, m.spaced ? 1 : undefined)
  // Object.fromEntries keeps the first position of a duplicate key; `id` is unique here, the others do not matter.
  return text
}

const edges = (text: string) =>
  [text.slice(0, OVERSIZE_EDGE_BYTES), text.slice(-OVERSIZE_EDGE_BYTES)] as const

describe('edgeId: the top-level id of a message held only by its edges', () => {
  it('is the message’s own id or nothing, never a nested one; first and last positions are always read', () => {
    fc.assert(
      fc.property(message, (m) => {
        const text = render(m)
        const [head, tail] = edges(text)
        const found = edgeId(head, tail)
        const readable =
          m.position === 'last' ||
          (m.position === 'first' && JSON.stringify(m.id).length < OVERSIZE_EDGE_BYTES - 20) ||
          text.length <= OVERSIZE_EDGE_BYTES
        if (readable) expect(found).toEqual(m.id)
        else if (found !== undefined) expect(found).toEqual(m.id)
      }),
      { numRuns: 300 },
    )
  })

  it('never throws, on any text and on any cut of a message (the head+tail splice that killed the gateway)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (head, tail) => {
        edgeId(head, tail)
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(message, fc.nat(), fc.nat(), (m, a, b) => {
        const text = render(m)
        edgeId(text.slice(0, a % (text.length + 1)), text.slice(b % (text.length + 1)))
      }),
      { numRuns: 300 },
    )
  })

  it('a string id cut by the head’s edge is no id (the old splice read it across the cut and threw)', () => {
    const body = 'a'.repeat(3 * OVERSIZE_EDGE_BYTES)
    const line = `{"jsonrpc":"2.0","method":"ping","id":"${body}"}`
    const [head, tail] = edges(line)
    expect(() => JSON.parse(`${head}\n${tail}`.slice(head.indexOf('"id":') + 5))).toThrow(SyntaxError)
    expect(edgeId(head, tail)).toBeUndefined()
    expect(edgeId('{"id":12', '')).toBeUndefined() // a number the head cuts may go on
    expect(edgeId('{"id":0123,', '')).toBeUndefined() // not JSON: no id, no throw
    expect(edgeId('{"id":"\\x",', '')).toBeUndefined()
  })

  it('two edges that name different ids name none; a batch or a non-object names none', () => {
    expect(edgeId('{"id":1,"x":', ',"id":2}')).toBeUndefined()
    expect(edgeId('{"id":1,"x":', ',"id":1}')).toBe(1)
    expect(edgeId('[{"id":1}]', '[{"id":1}]')).toBeUndefined()
    expect(edgeId('"id":1}', '"id":1}')).toBeUndefined()
    // A trailing quote whose escaping is decided before the tail's cut edge is unknowable.
    expect(edgeId('', '\\"id":"x"}')).toBeUndefined()
  })

  it('the splitter’s dropped lines carry the id of the line, read from its kept edges', () => {
    const got: OversizeLine[] = []
    const splitter = new LineSplitter({ maxBytes: 1024, onLine: () => {}, onOversize: (l) => got.push(l) })
    const long = 'x'.repeat(5 * OVERSIZE_EDGE_BYTES)
    splitter.push(Buffer.from(`{"jsonrpc":"2.0","id":7,"params":{"id":1,"p":"${long}"}}\n`))
    splitter.push(Buffer.from(`{"params":{"p":"${long}","id":1},"jsonrpc":"2.0","id":"last"}\r\n`))
    expect(got.map(oversizeLineId)).toEqual([7, 'last'])
  })
})

/** What a line written in front of a message may start with: none of them opens a JSON object. */
const logPrefix = fc
  .oneof(
    fc.constantFrom('debug: got ', 'DEBUG ', '[info] ', ' ', '\t"', '}', '[', '2026-01-01T00:00:00Z recv '),
    fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', ' ', '{', '}', '"', ':', '\\') }),
  )
  .filter((prefix) => prefix.trim() !== '' && !prefix.trimStart().startsWith('{'))

const isResponseShape = (m: Message) =>
  (Object.hasOwn(m.after, 'result') || Object.hasOwn(m.after, 'error')) && !Object.hasOwn(m.before, 'method')

describe('edgeMessage: whether a dropped message is an answer, not just whose', () => {
  it('a whole short message is a response exactly when it has result or error and no method, with its own id', () => {
    fc.assert(
      fc.property(message, (m) => {
        const text = render({ ...m, pad: '' })
        fc.pre(text.length <= OVERSIZE_EDGE_BYTES)
        expect(edgeMessage(text, text)).toEqual({ id: m.id, isResponse: isResponseShape(m) })
      }),
      { numRuns: 300 },
    )
  })

  it('never calls a message a response that is not one, and never names another id, on any cut of it', () => {
    fc.assert(
      fc.property(message, fc.nat(), fc.nat(), (m, a, b) => {
        const text = render(m)
        const found = edgeMessage(text.slice(0, a % (text.length + 1)), text.slice(b % (text.length + 1)))
        if (found.isResponse) expect([found.id, isResponseShape(m)]).toEqual([m.id, true])
      }),
      { numRuns: 300 },
    )
  })

  it('a line that does not open as an object is no response, whatever message it ends in', () => {
    fc.assert(
      fc.property(logPrefix, message, (prefix, m) => {
        const text = `${prefix}${render(m)}`
        const [head, tail] = edges(text)
        expect(edgeMessage(head, tail).isResponse).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('a log object that holds a message is no response, though its end names the message’s id', () => {
    fc.assert(
      fc.property(message, (m) => {
        const text = `{"level":"debug","msg":"got","request":${render(m)}`
        const [head, tail] = edges(text)
        expect(edgeMessage(head, tail).isResponse).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('the debug line of the report names the request but is no answer; real answers cut at any size are', () => {
    const debug = 'debug: got {"method":"tools/list","jsonrpc":"2.0","id":3}'
    expect(edgeMessage(debug, debug)).toEqual({ id: 3, isResponse: false })
    const long = 'x'.repeat(3 * OVERSIZE_EDGE_BYTES)
    for (const text of [
      `{"result":{"content":[{"type":"text","text":"${long}"}]},"jsonrpc":"2.0","id":5}`, // the TS SDK's order
      `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"${long}"}]}}`, // the Python SDK's
      `{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"${long}"}}`,
      '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","te', // cut short: malformed, still the answer
    ]) {
      const [head, tail] = edges(text)
      expect(edgeMessage(head, tail)).toEqual({ id: 5, isResponse: true })
    }
    // A request (even one with a stray result member) and a message without an id are no answer.
    expect(edgeMessage('{"method":"x","result":1,"id":5}', '{"method":"x","result":1,"id":5}')).toEqual({
      id: 5,
      isResponse: false,
    })
    expect(edgeMessage('{"jsonrpc":"2.0","result":{"t":"', '"}}')).toEqual({
      id: undefined,
      isResponse: false,
    })
  })
})

describe('RequestTracker.ownerOfDropped', () => {
  it('an answer takes its pending request; a line that only names it leaves it pending; nobody else is named', () => {
    const tracker = new RequestTracker()
    tracker.sent({ jsonrpc: '2.0', id: 3, method: 'tools/list' })
    const request = { id: 3, method: 'tools/list' }
    expect(tracker.ownerOfDropped({ id: 3, isResponse: false })).toEqual({ request, answered: false })
    expect(tracker.size).toBe(1)
    expect(tracker.ownerOfDropped({ id: '3', isResponse: true })).toBeUndefined()
    expect(tracker.ownerOfDropped({ id: undefined, isResponse: true })).toBeUndefined()
    expect(tracker.ownerOfDropped({ id: 3, isResponse: true })).toEqual({ request, answered: true })
    expect(tracker.size).toBe(0)
    expect(tracker.ownerOfDropped({ id: 3, isResponse: true })).toBeUndefined()
  })
})

describe('RequestTracker.claim and SSE events', () => {
  it('claims only a pending request, once', () => {
    const tracker = new RequestTracker()
    tracker.sent({ jsonrpc: '2.0', id: 3, method: 'tools/call' })
    expect(tracker.claim(undefined)).toBeUndefined()
    expect(tracker.claim('3')).toBeUndefined()
    expect(tracker.claim(3)).toEqual({ id: 3, method: 'tools/call' })
    expect(tracker.claim(3)).toBeUndefined()
  })

  it('an event’s id is read from its data, not from its field lines', () => {
    const head = 'event: message\nid: 99\ndata: {"jsonrpc":"2.0","id":5,"result":{"t":"'
    expect(edgeId(eventDataHead(head), '"}}\n\n')).toBe(5)
    expect(eventDataHead('data:{"id":1')).toBe('{"id":1')
    expect(eventDataHead(': keep-alive\nid: 4\n')).toBe('')
  })
})
