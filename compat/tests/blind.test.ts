import { PROFILE_IDS } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isBlindSchema } from '../src/blind.ts'
import type { ServerListing } from '../src/collect.ts'
import { buildReport } from '../src/table.ts'
import { declaredSchema } from './arbitraries.ts'

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'

// Roots that name nothing, as servers list them: only `$schema` (the case that counted as "meaning kept"), `{}`,
// `{ type: 'object' }`, an empty property table, with annotations and an open `additionalProperties`.
const blindRoot = fc
  .record(
    {
      $schema: fc.constantFrom(DRAFT_07, 'https://json-schema.org/draft/2020-12/schema'),
      type: fc.constant('object'),
      properties: fc.constant({}),
      description: fc.string({ maxLength: 8 }),
      title: fc.string({ maxLength: 8 }),
      additionalProperties: fc.constant(true),
    },
    { requiredKeys: [] },
  )
  .map((schema) => schema as Record<string, unknown>)

// Each of these says something at the root; any one of them makes a blind root informative.
const informative = fc.constantFrom<Record<string, unknown>>(
  { properties: { path: { type: 'string' } } },
  { additionalProperties: false },
  { additionalProperties: { type: 'string' } },
  { anyOf: [{ properties: { a: { type: 'string' } } }] },
  { oneOf: [{ type: 'object' }] },
  { allOf: [{ required: ['a'] }] },
  { $ref: '#/$defs/args' },
  { enum: [{}] },
  { const: {} },
  { patternProperties: { '^x-': { type: 'string' } } },
  { propertyNames: { pattern: '^[a-z]+$' } },
  { items: { type: 'string' } },
)

describe('a blind tool: its declared schema names no argument', () => {
  it('is blind for {}, a $schema-only root, { type: "object" } and an empty property table', () => {
    for (const schema of [
      {},
      { $schema: DRAFT_07 },
      { type: 'object' },
      { type: 'object', properties: {} },
      { $schema: DRAFT_07, type: 'object', additionalProperties: true },
    ])
      expect(isBlindSchema(schema)).toBe(true)
  })

  it('is not blind when the tool says it takes no argument (additionalProperties: false)', () => {
    expect(isBlindSchema({ type: 'object', properties: {}, additionalProperties: false })).toBe(false)
  })

  it('is not blind for what is not a schema object or is a root of another type', () => {
    for (const schema of [undefined, null, true, 'object', [], { type: 'string' }])
      expect(isBlindSchema(schema)).toBe(false)
  })

  it('holds for every root that names nothing, and for none once it names anything', () => {
    fc.assert(
      fc.property(blindRoot, informative, (root, extra) => {
        expect(isBlindSchema(root)).toBe(true)
        expect(isBlindSchema({ ...root, ...extra })).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('never calls a generated schema with a named property blind', () => {
    fc.assert(
      fc.property(declaredSchema(), (schema) => {
        const named = schema.properties !== undefined && Object.keys(schema.properties as object).length > 0
        if (named) expect(isBlindSchema(schema)).toBe(false)
      }),
      { numRuns: 200 },
    )
  })
})

describe('the table counts blind tools apart', () => {
  const listing: ServerListing = {
    id: 'synthetic',
    packageName: 'synthetic-mcp',
    packageVersion: '1.0.0',
    serverName: 'synthetic',
    serverVersion: '1.0.0',
    tools: [
      {
        name: 'only_schema',
        description: 'Search the index by query and page.',
        inputSchema: { $schema: DRAFT_07 },
      },
      { name: 'no_arguments', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
      {
        name: 'search',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    ],
  }

  it('marks the tool, counts it as usable and blind, and never as meaning kept', async () => {
    const report = await buildReport([listing])
    expect(report.servers[0]!.tools.map((tool) => [tool.name, tool.blind])).toEqual([
      ['only_schema', true],
      ['no_arguments', false],
      ['search', false],
    ])
    for (const profile of PROFILE_IDS) {
      const { after, meaning } = report.totals[profile]
      expect(after.blind).toBe(1)
      expect(after.usable).toBe(3)
      expect(meaning.measured + meaning.unsampled + after.blind).toBe(after.usable)
      expect(meaning.keptAll).toBeLessThanOrEqual(2)
    }
  })
})
