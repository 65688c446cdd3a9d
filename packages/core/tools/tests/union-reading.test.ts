import { describe, expect, it } from 'vitest'
import { createToolContract } from '../src/index.ts'

/** Reader fixes found by the differential round trip (testkit `round-trip`), each with the case that failed before. */
const TOOL = { tool: 'union-reading', source: 'vitest' }

describe('reading a union back', () => {
  it('a string branch beside an any-JSON branch goes out as one JSON-text slot: every string reads back one way (deepseek)', () => {
    const contract = createToolContract(
      { type: 'object', properties: { u: { anyOf: [{ type: 'string' }, {}] } }, required: ['u'] },
      TOOL,
    )
    // The string branch beside a JSON-text branch would make "42" mean the string or the number; one slot says which.
    const wire = contract.projection('deepseek').wire as { properties: { u: Record<string, unknown> } }
    expect(wire.properties.u.type).toBe('string')
    expect(wire.properties.u.anyOf).toBeUndefined()
    for (const value of ['42', 'true', 'null', '{"a":1}', 'x', 42, true, null, { a: 1 }])
      expect(contract.parseArguments({ u: JSON.stringify(value) }, 'deepseek'), String(value)).toStrictEqual({
        u: value,
      })
    // Text that is no JSON is kept as the model wrote it.
    expect(contract.parseArguments({ u: 'plain words' }, 'deepseek')).toStrictEqual({ u: 'plain words' })
  })

  it('object branches told apart by a const key: only the branch named decodes the value (codex)', () => {
    const contract = createToolContract(
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
