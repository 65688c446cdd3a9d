import { afterEach, describe, expect, it } from 'vitest'
import { checkToolParameters } from '../src/index.ts'

// The shape check iterates a snapshot with `for...in` and looks keyword shapes up by name; an enumerable key on
// `Object.prototype` (some dependency's mistake) must reach neither as if every node declared it.
const POLLUTED = ['type', 'properties', 'enum'] as const

afterEach(() => {
  for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key]
})

function pollute(): void {
  const proto = Object.prototype as Record<string, unknown>
  proto.type = 42
  proto.properties = 'not a map'
  proto.enum = []
}

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'where' },
    mode: { enum: ['a', 'b'] },
    options: { type: 'object', properties: { depth: { type: 'integer', minimum: 0 } } },
  },
  required: ['path'],
}

describe('an enumerable key on Object.prototype', () => {
  it('is not read as a keyword of any node, so a valid schema stays valid', () => {
    expect(checkToolParameters(schema).violations).toEqual([])
    pollute()
    expect(checkToolParameters(schema).violations).toEqual([])
  })

  it('still lets a real violation through to the report', () => {
    pollute()
    const broken = { type: 'object', properties: { path: { type: 'strnig' } } }
    expect(checkToolParameters(broken).violations.map((v) => [v.pointer, v.rule])).toEqual([
      ['/properties/path/type', 'type-unknown'],
    ])
  })
})
