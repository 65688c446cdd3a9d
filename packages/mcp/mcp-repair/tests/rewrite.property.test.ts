import { idKey } from '@dsh-harden/mcp-transport'
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rewriteToolsListText } from '../src/index.ts'

const name = fc.stringMatching(/^[a-z][a-z0-9_/]{0,12}$/)
const text = fc.string({ maxLength: 12 })
const compliant = fc.record({
  name,
  description: text,
  inputSchema: fc.record({
    type: fc.constant('object'),
    properties: fc.dictionary(
      fc.stringMatching(/^[a-z\u00e9\u2603]{1,6}$/),
      fc.record({ type: fc.constant('string'), description: text }),
      { maxKeys: 3 },
    ),
  }),
})
const broken = fc.record({
  name,
  inputSchema: fc.constantFrom<unknown>({}, { $schema: 'http://json-schema.org/draft-07/schema#' }),
})
const tools = (entry: fc.Arbitrary<Record<string, unknown>>) =>
  fc.uniqueArray(entry, { selector: (t) => t.name, maxLength: 25 })
// How a server might lay out its JSON: compact, pretty, or with \u escapes.
const layout = fc.constantFrom<(value: unknown) => string>(
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2).replaceAll('\n', ' '),
  (v) =>
    JSON.stringify(v).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
)
const isList = (key: string) => key === idKey(1)

describe('rewriteToolsListText properties', () => {
  it('forwards a compliant tools/list response as the very same text', () => {
    fc.assert(
      fc.property(tools(compliant), layout, (list, serialize) => {
        const message = { jsonrpc: '2.0', id: 1, result: { tools: list } }
        const wire = serialize(message)
        expect(rewriteToolsListText(wire, JSON.parse(wire), isList, 's').text).toBe(wire)
      }),
    )
  })

  it('copies every compliant tool byte for byte and makes the page acceptable to the SDK', () => {
    fc.assert(
      fc.property(tools(fc.oneof(compliant, broken)), layout, (list, serialize) => {
        const message = { jsonrpc: '2.0', id: 1, result: { tools: list, nextCursor: 'c' } }
        const wire = serialize(message)
        const out = rewriteToolsListText(wire, JSON.parse(wire), isList, 's')
        const parsed = JSON.parse(out.text)
        expect(ListToolsResultSchema.safeParse(parsed.result).success).toBe(true)
        expect(parsed.result.tools).toHaveLength(list.length)
        expect(parsed.result.nextCursor).toBe('c')
        for (const tool of list.filter((t) => Object.keys(t.inputSchema as object).length > 1)) {
          const own = serialize(tool)
          if (wire.includes(own)) expect(out.text).toContain(own)
        }
      }),
    )
  })

  it('never touches a response whose id is not a pending tools/list, nor any other message of a batch', () => {
    fc.assert(
      fc.property(tools(broken), (list) => {
        const batch = [
          { jsonrpc: '2.0', id: 2, result: { tools: list } },
          { jsonrpc: '2.0', id: 1, result: { tools: list } },
          { jsonrpc: '2.0', method: 'notifications/message', params: { tools: list } },
        ]
        const wire = JSON.stringify(batch)
        const out = JSON.parse(rewriteToolsListText(wire, batch, isList, 's').text)
        expect(out[0]).toEqual(batch[0])
        expect(out[2]).toEqual(batch[2])
        expect(ListToolsResultSchema.safeParse(out[1].result).success).toBe(true)
      }),
    )
  })
})
