import { describe, expect, it } from 'vitest'
import {
  judgeMcpOutputSchema,
  judgeMcpSchema,
  judgeMcpToolList,
  meetsMcpSchemaShape,
  REASONS_SHOWN,
  showChange,
  stockRouteVerdict,
  toolRouteVerdict,
} from '../src/index.ts'

/**
 * The MCP boundary's verdicts as a client, the repair proxy and `pnpm compat` see them (issue 23 item 7: mutants of
 * `mcp/` that the suite let through). Every repair and refusal a user sees names where, what and how to fix.
 */
function expectWorded(violations: readonly { pointer: string; message: string; hint: string }[]): void {
  expect(violations.length).toBeGreaterThan(0)
  for (const violation of violations) {
    expect(violation.message.length, JSON.stringify(violation)).toBeGreaterThan(20)
    expect(violation.hint.length, JSON.stringify(violation)).toBeGreaterThan(10)
  }
}

describe('the MCP `Tool` shape, as the SDK judges inputSchema and outputSchema', () => {
  it.each([
    [{ type: 'object' }, true],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, true],
    [{ type: 'object', properties: Object.create(null) }, true],
    [{ type: 'string' }, false],
    [{ properties: {} }, false],
    [[], false],
    [null, false],
    [{ type: 'object', properties: [] }, false],
    [{ type: 'object', properties: { a: true } }, false],
    [{ type: 'object', properties: { a: null } }, false],
    [{ type: 'object', properties: { a: 'string' } }, false],
    [{ type: 'object', required: 'a' }, false],
    [{ type: 'object', required: [1] }, false],
    [Object.assign(new (class Schema {})(), { type: 'object' }), false],
  ])('%j meets it: %s', (schema, meets) => {
    expect(meetsMcpSchemaShape(schema)).toBe(meets)
  })

  it('a `type` or `required` inherited from the prototype chain is not the schema’s own', () => {
    const inherited = Object.assign(Object.create({ type: 'object' }) as object, { properties: {} })
    expect(meetsMcpSchemaShape(inherited)).toBe(false)
  })
})

describe('repairs with exactly one meaning, and only where they apply', () => {
  it('an object root without properties gets `properties: {}` as an inputSchema under the contract policy only', () => {
    const input = judgeMcpSchema({ type: 'object' }, 'inputSchema', { policy: 'contract' })
    expect(input).toMatchObject({ kind: 'repaired', schema: { type: 'object', properties: {} } })
    if (input.kind !== 'repaired') throw new Error('not repaired')
    expect(input.repaired.map((v) => `${v.pointer} ${v.rule}`)).toEqual(['/properties properties-not-map'])
    expectWorded(input.repaired)
    // An output schema without properties already means "any object"; the proxy's `spec` policy leaves it too.
    const output = { type: 'object' }
    expect(judgeMcpSchema(output, 'outputSchema', { policy: 'contract' })).toEqual({
      kind: 'ok',
      schema: output,
    })
    expect(judgeMcpSchema(output, 'inputSchema', { policy: 'spec' })).toEqual({ kind: 'ok', schema: output })
  })

  it('a root of only metadata, `required: null`, boolean property schemas: each repair says what it did', () => {
    const cases: [unknown, string][] = [
      [{ $schema: 'http://json-schema.org/draft-07/schema#' }, ' root-empty'],
      [{ type: 'object', properties: {}, required: null }, '/required required-not-array'],
      [{ type: 'object', properties: { on: true, off: false } }, '/properties/on property-not-schema'],
    ]
    for (const [schema, first] of cases) {
      const verdict = judgeMcpSchema(schema, 'inputSchema', { policy: 'contract' })
      if (verdict.kind !== 'repaired') throw new Error(`${JSON.stringify(schema)}: ${verdict.kind}`)
      expect(`${verdict.repaired[0]!.pointer} ${verdict.repaired[0]!.rule}`).toBe(first)
      expectWorded(verdict.repaired)
      expect(meetsMcpSchemaShape(verdict.schema)).toBe(true)
    }
    const booleans = judgeMcpSchema({ type: 'object', properties: { on: true, off: false } }, 'inputSchema', {
      policy: 'contract',
    })
    expect(booleans).toMatchObject({ schema: { properties: { on: {}, off: { not: {} } } } })
  })

  it('a required key the properties do not declare is declared with what additionalProperties admits', () => {
    const open = judgeMcpSchema({ type: 'object', properties: {}, required: ['id'] }, 'inputSchema', {
      policy: 'contract',
    })
    expect(open).toMatchObject({ kind: 'repaired', schema: { properties: { id: {} }, required: ['id'] } })
    const typed = judgeMcpSchema(
      { type: 'object', properties: {}, required: ['id'], additionalProperties: { type: 'string' } },
      'inputSchema',
      { policy: 'contract' },
    )
    expect(typed).toMatchObject({ kind: 'repaired', schema: { properties: { id: { type: 'string' } } } })
    if (open.kind !== 'repaired' || typed.kind !== 'repaired') throw new Error('not repaired')
    expect(open.repaired[0]!.message).not.toMatch(/additionalProperties/)
    expect(typed.repaired[0]!.message).toMatch(/additionalProperties/)
    expect(typed.repaired[0]!.pointer).toBe('/required/0')
    expectWorded([...open.repaired, ...typed.repaired])
    // Under `patternProperties` the key may be governed by a pattern: not repaired here.
    const patterned = { type: 'object', properties: {}, required: ['id'], patternProperties: { '^i': {} } }
    expect(judgeMcpSchema(patterned, 'inputSchema', { policy: 'contract' }).kind).not.toBe('repaired')
  })

  it('a tool that lists no inputSchema is served as taking no arguments, and says so', () => {
    const verdict = judgeMcpSchema(undefined, 'inputSchema', { policy: 'contract' })
    expect(verdict).toMatchObject({ kind: 'repaired', schema: { type: 'object', properties: {} } })
    if (verdict.kind !== 'repaired') throw new Error('not repaired')
    expect(verdict.repaired[0]!.pointer).toBe('')
    expectWorded(verdict.repaired)
    expect(judgeMcpOutputSchema(undefined, { policy: 'contract' })).toEqual({ kind: 'ok', schema: undefined })
  })

  it('an output schema that cannot be served is dropped, the tool kept', () => {
    const dropped = judgeMcpOutputSchema({ type: 'string' }, { policy: 'spec' })
    expect(dropped.kind).toBe('dropped')
    if (dropped.kind !== 'dropped') throw new Error('not dropped')
    expectWorded(dropped.violations)
    const [tool] = judgeMcpToolList([
      { name: 't', inputSchema: { type: 'object', properties: {} }, outputSchema: { type: 'string' } },
    ])
    expect(tool).toMatchObject({
      status: 'repaired',
      problems: [{ schema: 'outputSchema', effect: 'output-unchecked' }],
    })
    expect(tool?.tool).not.toHaveProperty('outputSchema')
  })
})

describe('entries a page cannot serve are isolated one by one, each named', () => {
  it('not an object, no string name, a name listed twice', () => {
    const good = { name: 'ok', inputSchema: { type: 'object', properties: {} } }
    const verdicts = judgeMcpToolList([
      7,
      { inputSchema: {} },
      { ...good, name: 'twice' },
      { ...good, name: 'twice' },
      good,
    ])
    expect(verdicts.map((v) => `${v.name} ${v.status}`)).toEqual([
      '#0 isolated',
      '#1 isolated',
      'twice isolated',
      'twice isolated',
      'ok accepted',
    ])
    expect(verdicts[4]!.tool).toBe(good)
    for (const verdict of verdicts.slice(0, 4)) {
      expect(verdict.repairs).toEqual([])
      expectWorded(verdict.problems.flatMap((problem) => problem.violations))
    }
  })
})

describe('the route verdicts of the compatibility table', () => {
  const clean = { type: 'object', properties: { q: { type: 'string' } } }

  it('stock DSH: sent as is, read back wrong, or refused, with the reasons', () => {
    expect(stockRouteVerdict(clean, 'deepseek')).toEqual({ verdict: 'as-is', reasons: [] })
    expect(stockRouteVerdict([], 'deepseek')).toMatchObject({
      verdict: 'refused',
      reasons: [expect.any(String)],
    })
    const untyped = stockRouteVerdict({ type: 'object', properties: { data: {} } }, 'deepseek')
    expect(untyped.verdict).toBe('misread')
    expect(untyped.reasons.join('\n')).toMatch(/\/properties\/data/)
    const refused = stockRouteVerdict(
      { type: 'object', properties: { 'a b': { type: 'string' } } },
      'anthropic',
    )
    expect(refused.verdict).toBe('refused')
    expect(refused.reasons.join('\n')).toMatch(/a b/)
  })

  it('with dsh-harden: as is (the very object listed), repaired, decoded or refused', () => {
    const listed = [
      { name: 'clean', inputSchema: clean },
      { name: 'untyped', inputSchema: { type: 'object', properties: { data: {} } } },
      { name: 'bare', inputSchema: { type: 'object' } },
      { name: 'bad', inputSchema: { type: 'string' } },
    ]
    const verdicts = judgeMcpToolList(listed, { profile: 'deepseek' })
    const shown = verdicts.map((verdict, index) => toolRouteVerdict(listed[index], verdict))
    expect(shown.map((v) => v.verdict)).toEqual(['as-is', 'decoded', 'repaired', 'refused'])
    expect(shown[0]).toEqual({ verdict: 'as-is', reasons: [], changes: [], decoder: [] })
    expect(shown[1]!.decoder.join('\n')).toMatch(/\/properties\/data: .*JSON text/)
    expect(shown[2]!.changes.join('\n')).toMatch(/inputSchema \/properties repaired properties-not-map/)
    expect(shown[3]!.reasons.length).toBeGreaterThan(0)
    expect(shown[3]!.reasons[0]).toMatch(/^inputSchema: /)
    expect(shown[3]).toMatchObject({ changes: [], decoder: [] })
  })

  it('reasons are cut to the first few; a dropped output schema and metadata drops are listed as changes', () => {
    const keys = Object.fromEntries(Array.from({ length: 7 }, (_, n) => [`k ${n}`, { type: 'string' }]))
    expect(stockRouteVerdict({ type: 'object', properties: keys }, 'anthropic').reasons).toHaveLength(
      REASONS_SHOWN,
    )
    const untyped = Object.fromEntries(Array.from({ length: 7 }, (_, n) => [`k${n}`, {}]))
    expect(stockRouteVerdict({ type: 'object', properties: untyped }, 'deepseek').reasons).toHaveLength(
      REASONS_SHOWN,
    )
    expect(stockRouteVerdict('text', 'openai').reasons).toEqual([
      '(root): the inputSchema is not a JSON object, so no route can take it',
    ])
    const listed = {
      name: 'meta',
      inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
      outputSchema: { type: 'string' },
    }
    const [verdict] = judgeMcpToolList([listed], { profile: 'anthropic' })
    const shown = toolRouteVerdict(listed, verdict!)
    expect(shown.verdict).toBe('repaired')
    expect(shown.decoder).toEqual([])
    expect(shown.changes.join('\n')).toMatch(/^outputSchema dropped \(output-unchecked\): /m)
    expect(shown.changes.join('\n')).toMatch(/^\/\$schema dropped \$schema: /m)
  })

  it('a projection change reads `pointer action keyword: detail`, the root shown as (root)', () => {
    expect(showChange({ pointer: '', action: 'dropped', keyword: '$schema', detail: 'metadata' })).toBe(
      '(root) dropped $schema: metadata',
    )
    expect(showChange({ pointer: '/properties/a', action: 'renamed', detail: 'to a_1' })).toBe(
      '/properties/a renamed: to a_1',
    )
  })
})
