import { describe, expect, it } from 'vitest'
import { compileToolContract } from '../src/index.ts'

/** Reader fixes found by the differential round trip (testkit `round-trip`), each with the case that failed before. */
const TOOL = { tool: 'union-reading', source: 'vitest' }

describe('reading a union back', () => {
  it('a string valid as sent for a string branch reaches the tool as sent, beside an any-JSON branch (deepseek)', () => {
    const contract = compileToolContract(
      { type: 'object', properties: { u: { anyOf: [{ type: 'string' }, {}] } }, required: ['u'] },
      TOOL,
    )
    // Stock DSH hands "42" to the tool; the reading used to parse it into 42.
    for (const text of ['42', 'true', 'null', '{"a":1}', '"x"'])
      expect(contract.parseArguments({ u: text }, 'deepseek'), text).toStrictEqual({ u: text })
  })

  it('object branches told apart by a const key: only the branch named decodes the value (codex)', () => {
    const contract = compileToolContract(
      {
        type: 'object',
        properties: {
          v: {
            oneOf: [
              { type: 'object', properties: { kind: { const: 'a' }, n: {} }, required: ['kind'] },
              {
                type: 'object',
                properties: { kind: { const: 'b' }, m: { type: 'integer' } },
                required: ['kind'],
              },
            ],
          },
        },
        required: ['v'],
      },
      TOOL,
    )
    // `n` goes as JSON text in branch a; branch b (decoded too: codex widens its optional `m`) keeps unknown keys. The value names branch a, so "null"
    // is the JSON text of null (it used to stay the string "null", merged with branch b's reading).
    expect(contract.normalizeArguments({ v: { kind: 'a', n: 'null' } }, 'codex')).toStrictEqual({
      v: { kind: 'a', n: null },
    })
    expect(contract.normalizeArguments({ v: { kind: 'b', n: 'null' } }, 'codex')).toStrictEqual({
      v: { kind: 'b', n: 'null' },
    })
  })
})
