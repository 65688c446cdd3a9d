import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type JsonObject, judgeMcpToolList, PROFILE_IDS, type ProfileId } from '../src/index.ts'
import { renameAll } from '../src/projection/names.ts'
import { profileRules } from '../src/projection/profiles.ts'
import { callWork, expectLinearWork } from './work.ts'

/**
 * The work-counting harness of `work.property.test.ts`, on the shapes issue 16's rules rewrite: renamed keys, enums
 * sent as text, undeclared required names, refused patterns, and the wide unions the MCP boundary merges. Work is
 * counted (projection, reading, validator calls), never timed, and must grow linearly.
 */
const _TOOL = { tool: 'routes', source: 'fast-check' }

const FAMILIES: Record<string, { schema: (n: number) => JsonObject; valid: (n: number) => JsonObject }> = {
  // Keys Anthropic and Gemini refuse: every one renamed on the wire and mapped back.
  renamedKeys: {
    schema: (n) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k[${i}]`, { type: 'string' }])),
    }),
    valid: (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k[${i}]`, 'v'])),
  },
  // Gemini's integer enum as JSON-text strings.
  integerEnum: {
    schema: (n) => ({
      type: 'object',
      properties: { a: { type: 'integer', enum: Array.from({ length: n }, (_, i) => i) } },
    }),
    valid: (n) => ({ a: n - 1 }),
  },
  // Required names the object does not declare, one level down: declared on the wire.
  undeclaredRequired: {
    schema: (n) => ({
      type: 'object',
      properties: { a: { type: 'object', required: Array.from({ length: n }, (_, i) => `r${i}`) } },
    }),
    valid: (n) => ({ a: Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, i])) }),
  },
  // Patterns with lookaround or a \0 escape: spilled where the engine refuses them.
  refusedPatterns: {
    schema: (n) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `p${i}`,
          { type: 'string', pattern: i % 2 ? '^[^\\0]+$' : '^\\p{L}+$' },
        ]),
      ),
    }),
    valid: (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'abc'])),
  },
}

function familyWork(family: string, profile: ProfileId, n: number): number {
  const { schema, valid } = FAMILIES[family]!
  return callWork(schema(n), valid(n), profile)
}

describe('issue-16 rules keep work linear, for every profile', () => {
  it('projection + normalize + parse, sizes n, 2n, 4n', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FAMILIES)),
        fc.constantFrom(...PROFILE_IDS),
        fc.integer({ min: 40, max: 60 }),
        (family, profile, n) => {
          expectLinearWork(`${family}/${profile}`, (size) => familyWork(family, profile, size), n)
        },
      ),
      { numRuns: 30 },
    )
  })

  it('renameAll: candidate names tried grow linearly with the set, colliding names included', () => {
    const rule = profileRules('anthropic').propertyKeys!
    // `k[i]` and `k_i_` escape to the same name: every refused one needs a suffix.
    const names = (n: number) => Array.from({ length: n }, (_, i) => [`k[${i}]`, `k_${i}_`]).flat()
    const tried = (n: number): number => {
      const renames = renameAll(names(n), rule)
      return [...(renames?.toWire.values() ?? [])].reduce((sum, wire) => sum + wire.length, 0)
    }
    expectLinearWork('renameAll', tried, 200)
  })

  it('the MCP boundary merges a wide union root: the served schema grows linearly with the branches', () => {
    const union = (n: number) => ({
      anyOf: Array.from({ length: n }, (_, i) => ({
        type: 'object',
        properties: { kind: { const: `k${i}` }, [`f${i}`]: { type: 'string' } },
        required: ['kind', `f${i}`],
        additionalProperties: false,
      })),
    })
    const size = (n: number): number => {
      const [verdict] = judgeMcpToolList([{ name: 'wide', inputSchema: union(n) }], { profile: 'anthropic' })
      expect(verdict?.status).toBe('repaired')
      return (
        JSON.stringify(verdict?.tool?.inputSchema).length +
        JSON.stringify(verdict?.projection?.input.wire).length
      )
    }
    expectLinearWork('union root', size, 50)
  })
})
