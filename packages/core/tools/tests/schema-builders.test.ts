import { Type } from '@earendil-works/pi-ai'
import { describe, expect, it } from 'vitest'
import { createToolContract } from '../src/index.ts'

const TOOL = { tool: 'read_file', source: 'pi-plugin' }

/**
 * pi-ai's `Type` is TypeBox 1.x: every node it builds carries a non-enumerable `~kind` (0.34 used a symbol key). No
 * serializer sends either, so such a schema is the JSON it serializes to, and stock DSH sends exactly that.
 */
describe('schemas built with pi-ai Type (TypeBox)', () => {
  const parameters = Type.Object({
    path: Type.String({ description: 'File to read.' }),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    mode: Type.Union([Type.Literal('text'), Type.Literal('bytes')]),
    tags: Type.Array(Type.String()),
  })

  it('carry hidden markers, so the test would see a regression', () => {
    expect(Reflect.ownKeys(parameters)).toContain('~kind')
  })

  it('pass the root contract and are copied as JSON.stringify sends them', () => {
    const contract = createToolContract(parameters, TOOL)
    expect(JSON.stringify(contract.declared)).toBe(JSON.stringify(parameters))
    expect(Reflect.ownKeys(contract.declared as object)).not.toContain('~kind')
  })

  it('read and validate arguments as declared', () => {
    const contract = createToolContract(parameters, TOOL)
    expect(contract.validate({ path: 'a.txt', mode: 'text', tags: [] })).toEqual([])
    expect(contract.validate({ path: 'a.txt', mode: 'lines', tags: [] }).length).toBeGreaterThan(0)
  })
})
