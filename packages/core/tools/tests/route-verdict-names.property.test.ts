import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  judgeMcpToolList,
  meetsName,
  PROFILE_IDS,
  profileRules,
  REASONS_SHOWN,
  renameAll,
  stockRouteVerdict,
  toolRouteVerdict,
} from '../src/index.ts'

/**
 * Issue 24: the shared verdict ignored tool names, so `mcp check`, `sanitize` and compat called a tool named
 * `service.doSomething` "as-is" on routes whose tool-name pattern refuses it, though stock DSH sends the name as
 * declared and the route fails the request. Stock now refuses such a name; with dsh-harden it is `decoded` (every door
 * given the route renames it and maps calls back).
 */
const SCHEMAS = [
  { type: 'object', properties: { q: { type: 'string' } } },
  { type: 'object', properties: { data: {} } },
  { type: 'object', properties: { 'a b': { type: 'string' } } },
  { type: 'object' },
  { type: 'string' },
  'not a schema',
]

/** Characters each route treats differently (dots, colons, leading digits and dashes, spaces, non-ASCII). */
const CHAR = fc.constantFrom('a', 'Z', '_', '-', '.', ':', '0', '9', ' ', '/', 'é', '😀')
/** Names of every length around the routes' 64-character bound, the empty name and the reported ones among them. */
const NAME = fc.oneof(
  fc.constantFrom(
    'service.doSomething',
    'ns:tool',
    '1st',
    '-x',
    '',
    'a'.repeat(64),
    'a'.repeat(65),
    'get_user',
  ),
  fc.array(CHAR, { maxLength: 8 }).map((chars) => chars.join('')),
  fc
    .tuple(fc.array(CHAR, { maxLength: 3 }), fc.integer({ min: 60, max: 66 }))
    .map(([chars, length]) => (chars.join('') + 'x'.repeat(length)).slice(0, length)),
)
const PROFILE = fc.constantFrom(...PROFILE_IDS)
const SCHEMA = fc.constantFrom(...SCHEMAS)

describe('stock: a tool is sent as declared, name and schema', () => {
  it('is refused exactly when the route refuses its name or its schema; the name says what, where and how to fix', () => {
    fc.assert(
      fc.property(NAME, PROFILE, SCHEMA, (name, profile, schema) => {
        const schemaOnly = stockRouteVerdict(schema, profile)
        const named = stockRouteVerdict(schema, profile, name)
        const rule = profileRules(profile).toolNames
        if (meetsName(name, rule)) {
          expect(named).toEqual(schemaOnly)
          return
        }
        expect(named.verdict).toBe('refused')
        const [first, ...rest] = named.reasons
        expect(first).toBe(
          `/name: ${profile}: the tool name ${JSON.stringify(name)} is outside the route's pattern ${rule.text} ` +
            `(fix: serve it through a door given the route (dsh-harden sanitize, mcp repair or mcp gateway with ` +
            `--route ${profile}) or the dsh-harden overlay: each sends a name the route takes and maps calls back)`,
        )
        // The schema's own refusals follow (a misread is moot once the request fails), within the shown count.
        const schemaRefusals = schemaOnly.verdict === 'refused' ? schemaOnly.reasons : []
        expect(rest).toEqual(schemaRefusals.slice(0, REASONS_SHOWN - 1))
      }),
      { numRuns: 2_000 },
    )
  })

  it('shows at most REASONS_SHOWN reasons, the name first', () => {
    const keys = Object.fromEntries(Array.from({ length: 7 }, (_, n) => [`k ${n}`, { type: 'string' }]))
    const { verdict, reasons } = stockRouteVerdict(
      { type: 'object', properties: keys },
      'anthropic',
      'service.doSomething',
    )
    expect(verdict).toBe('refused')
    expect(reasons).toHaveLength(REASONS_SHOWN)
    expect(reasons[0]).toMatch(/^\/name: anthropic: the tool name "service\.doSomething"/)
    expect(reasons[1]).toMatch(/^\/properties\/k 0: /)
  })
})

describe('with dsh-harden: a name the route refuses is renamed on the wire and read back', () => {
  it('is `decoded`, with the rename among the changes and the decoder; a name the route takes changes nothing', () => {
    fc.assert(
      fc.property(NAME, PROFILE, SCHEMA, (name, profile, schema) => {
        const listed = { name, inputSchema: schema }
        const [judged] = judgeMcpToolList([listed], { profile })
        const withName = toolRouteVerdict(listed, judged!, profile)
        const schemaOnly = toolRouteVerdict(listed, judged!)
        // The doors rename with `renameAll` over the route's tool names: the verdict says so exactly when they do.
        const renamed = renameAll([name], profileRules(profile).toolNames) !== undefined
        if (!renamed || schemaOnly.verdict === 'refused') {
          expect(withName).toEqual(schemaOnly)
          return
        }
        expect(withName.verdict).toBe('decoded')
        expect(withName.reasons).toEqual([])
        expect(withName.decoder).toEqual([
          '/name: the model calls this tool by its wire name; without a decoder mapping it back the server receives a name it never declared',
          ...schemaOnly.decoder,
        ])
        const nameChange = withName.changes.find((change) => change.startsWith('/name renamed: '))
        expect(nameChange).toContain(JSON.stringify(name))
        expect(withName.changes.filter((change) => change !== nameChange)).toEqual(schemaOnly.changes)
      }),
      { numRuns: 2_000 },
    )
  })

  it('the reported case: service.doSomething is decoded on anthropic and sent as is on gemini', () => {
    const listed = {
      name: 'service.doSomething',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    }
    const verdictOn = (profile: 'anthropic' | 'gemini') =>
      toolRouteVerdict(listed, judgeMcpToolList([listed], { profile })[0]!, profile).verdict
    expect(verdictOn('anthropic')).toBe('decoded')
    expect(verdictOn('gemini')).toBe('as-is')
    expect(stockRouteVerdict(listed.inputSchema, 'gemini', listed.name).verdict).toBe('as-is')
  })
})
