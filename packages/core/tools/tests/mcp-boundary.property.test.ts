import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  checkToolParameters,
  judgeMcpToolList,
  type McpToolVerdict,
  meetsMcpSchemaShape,
  PROFILE_IDS,
} from '../src/index.ts'
import { breakForRepair, plausibleParameters } from './arbitraries.ts'
import { mcpParameters } from './projection-arbitraries.ts'

/** The mistakes real MCP servers make that the MCP boundary repairs on top of the root contract's own repairs. */
function breakLikeAServer(schema: unknown, how: number): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema
  const root = schema as Record<string, unknown>
  switch (how % 6) {
    case 0:
      return { $schema: 'http://json-schema.org/draft-07/schema#' }
    case 1:
      return { ...root, required: null }
    case 2:
      return { ...root, properties: { ...(root.properties as object), flag: true, never: false } }
    case 3: {
      const { properties: _properties, required: _required, ...rest } = root
      return rest
    }
    case 4:
      return undefined
    default:
      return breakForRepair(schema, how)
  }
}

const inputSchema = fc.oneof(
  { arbitrary: mcpParameters as fc.Arbitrary<unknown>, weight: 3 },
  { arbitrary: plausibleParameters, weight: 3 },
  {
    arbitrary: fc.tuple(plausibleParameters, fc.nat()).map(([s, how]) => breakLikeAServer(s, how)),
    weight: 4,
  },
)
const outputSchema = fc.oneof(
  fc.constant(undefined),
  mcpParameters as fc.Arbitrary<unknown>,
  fc.constantFrom<unknown>({ type: 'array' }, { type: 'object', properties: { p: { pattern: '(' } } }, {}),
)
const tool = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
  inputSchema,
  outputSchema,
})
const uniqueTools = fc.uniqueArray(tool, { selector: (t) => t.name, maxLength: 12 })

function withoutUndefined(tools: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return tools.map((t) => Object.fromEntries(Object.entries(t).filter(([, value]) => value !== undefined)))
}

function servedSchemas(verdicts: readonly McpToolVerdict[]) {
  return verdicts.map((v) => [v.status, v.tool?.inputSchema, v.tool?.outputSchema])
}

describe('the MCP boundary (judgeMcpToolList)', () => {
  it('serves only schemas that meet the root contract and the MCP Tool shape (contract policy)', {
    timeout: 600_000,
  }, () => {
    fc.assert(
      fc.property(uniqueTools, (listed) => {
        for (const verdict of judgeMcpToolList(withoutUndefined(listed))) {
          if (verdict.tool === undefined) {
            expect(verdict.status).toBe('isolated')
            expect(verdict.problems.some((p) => p.effect === 'isolated' && p.violations.length > 0)).toBe(
              true,
            )
            continue
          }
          expect(checkToolParameters(verdict.tool.inputSchema).violations).toEqual([])
          expect(meetsMcpSchemaShape(verdict.tool.inputSchema)).toBe(true)
          if (verdict.tool.outputSchema !== undefined)
            expect(meetsMcpSchemaShape(verdict.tool.outputSchema)).toBe(true)
          expect(verdict.status === 'accepted').toBe(
            verdict.repairs.length === 0 && verdict.problems.length === 0,
          )
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is idempotent: what it serves is served again as the very same objects', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(uniqueTools, (listed) => {
        const served = judgeMcpToolList(withoutUndefined(listed)).flatMap((v) =>
          v.tool === undefined ? [] : [v.tool],
        )
        const again = judgeMcpToolList(served)
        again.forEach((verdict, index) => {
          expect(verdict.status).toBe('accepted')
          expect(verdict.tool).toBe(served[index])
        })
      }),
      { numRuns: 300 },
    )
  })

  it('judges each tool on its own: a list is the concatenation of its one-tool lists', {
    timeout: 600_000,
  }, () => {
    fc.assert(
      fc.property(uniqueTools, (listed) => {
        const tools = withoutUndefined(listed)
        const whole = servedSchemas(judgeMcpToolList(tools))
        const parts = tools.flatMap((t) => servedSchemas(judgeMcpToolList([t])))
        expect(whole).toEqual(parts)
      }),
      { numRuns: 200 },
    )
  })

  it('under `spec`, a tool the MCP Tool shape accepts is served as it was listed, and nothing else misses the shape', {
    timeout: 600_000,
  }, () => {
    fc.assert(
      fc.property(uniqueTools, (listed) => {
        const tools = withoutUndefined(listed)
        judgeMcpToolList(tools, { policy: 'spec' }).forEach((verdict, index) => {
          const original = tools[index]!
          const fine =
            meetsMcpSchemaShape(original.inputSchema) &&
            (original.outputSchema === undefined || verdict.problems.length === 0)
          if (fine && verdict.repairs.length === 0) expect(verdict.tool).toBe(original)
          if (meetsMcpSchemaShape(original.inputSchema))
            expect(verdict.tool?.inputSchema).toBe(original.inputSchema)
          if (verdict.tool !== undefined) expect(meetsMcpSchemaShape(verdict.tool.inputSchema)).toBe(true)
        })
      }),
      { numRuns: 200 },
    )
  })

  it('with a profile, every served tool carries a wire schema the route accepts', {
    timeout: 600_000,
  }, () => {
    fc.assert(
      fc.property(uniqueTools, fc.constantFrom(...PROFILE_IDS), (listed, profile) => {
        for (const verdict of judgeMcpToolList(withoutUndefined(listed), { profile })) {
          if (verdict.tool === undefined) continue
          expect(verdict.projection).toBeDefined()
          expect(checkProfileContract(verdict.projection!.input.wire, profile)).toEqual([])
        }
      }),
      { numRuns: 200 },
    )
  })
})
