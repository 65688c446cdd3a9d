import { intakeToolList } from '@dsh-harden/mcp-client'
import { argumentsArbitrary, encodeForWire, hardSchema, WireCheck } from '@dsh-harden/testkit/round-trip'
import { createToolContract, type JsonValue, meetsName, PROFILE_IDS, profileRules } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RouteDoor } from '../src/mcp/route-door.ts'

// Hard cases: names the route refuses (dots, spaces, slashes, non-ASCII, over 64 characters, empty), and pairs whose
// escaped forms collide with each other or with a name the route takes (`a.b` / `a_b` / `a b`).
const HARD_NAMES = [
  'service.doSomething',
  'service_doSomething',
  'a.b',
  'a_b',
  'a b',
  'a/b',
  'ünïcode',
  '_',
  '-x',
  '9lives',
  'n'.repeat(64),
  `${'n'.repeat(64)}.`,
  `${'n'.repeat(70)}`,
  `${'n'.repeat(70)}.x`,
]
const name = fc.oneof(
  fc.constantFrom(...HARD_NAMES),
  fc.stringMatching(/^[a-z._ -]{1,8}$/),
  fc.string({ maxLength: 12 }),
)
const page = fc.uniqueArray(name, { maxLength: 12 })
const profile = fc.constantFrom(...PROFILE_IDS)

const schema = { type: 'object', properties: { q: { type: 'string' } } }

function served(names: readonly string[], route: (typeof PROFILE_IDS)[number]) {
  const door = new RouteDoor(route, 'prop')
  const intake = intakeToolList(
    names.map((n) => ({ name: n, inputSchema: schema })),
    { server: 'prop', policy: 'spec', profile: route },
  )
  return { door, intake, page: door.servePage(intake) }
}

const call = (toolName: string, args: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: toolName, arguments: args },
})

describe('route door: every wire name is one the route takes, and a call to it reaches the server as declared', () => {
  it('wire names meet the route rule, are unique, and map back to the declared name', () => {
    fc.assert(
      fc.property(page, profile, (names, route) => {
        const { door, intake, page: out } = served(names, route)
        const rule = profileRules(route).toolNames
        const wire = out.tools.map((tool) => tool.name)
        expect(new Set(wire).size).toBe(wire.length)
        for (const [index, tool] of out.tools.entries()) {
          const declared = intake.tools[index]!.name
          expect(meetsName(tool.name, rule) || tool.name === declared).toBe(true)
          if (meetsName(declared, rule)) expect(tool.name).toBe(declared)
          const outbound = door.toServer(call(tool.name, { q: 'x' }))
          if (tool.name === declared) expect(outbound).toEqual({ kind: 'same' })
          else
            expect(outbound).toEqual({
              kind: 'changed',
              message: call(declared, { q: 'x' }),
            })
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a tool the route takes as listed is the very object the server listed; other messages pass as they are', () => {
    fc.assert(
      fc.property(page, profile, fc.jsonValue(), (names, route, other) => {
        const { door, intake, page: out } = served(names, route)
        for (const [index, tool] of out.tools.entries()) {
          const listed = intake.tools[index]!
          const kept = tool.name === listed.name && !out.projected.includes(listed.name)
          expect(tool === listed).toBe(kept)
        }
        expect(door.toServer(other)).toEqual({ kind: 'same' })
        expect(door.toServer({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: other })).toEqual({
          kind: 'same',
        })
      }),
      { numRuns: 200 },
    )
  })

  it('a batch maps each call back and keeps every other element as sent', () => {
    fc.assert(
      fc.property(page, profile, (names, route) => {
        const { door, page: out } = served(names, route)
        const batch = [
          ...out.tools.map((tool) => call(tool.name, { q: '1' })),
          { jsonrpc: '2.0', method: 'ping' },
        ]
        const outbound = door.toServer(batch)
        const expected = [
          ...out.tools.map((_, index) => call(served(names, route).intake.tools[index]!.name, { q: '1' })),
          batch.at(-1),
        ]
        if (outbound.kind === 'same') expect(batch).toEqual(expected)
        else expect(outbound).toEqual({ kind: 'changed', message: expected })
      }),
      { numRuns: 200 },
    )
  })
})

describe('route door: what it serves is what it decodes (hard schemas, testkit round trip)', () => {
  it("the wire input schema is the contract's projection for the route, and a value the model writes for it reaches the server under the declared name, read back by the contract", () => {
    fc.assert(
      fc.property(
        hardSchema.chain((declared) =>
          fc.tuple(fc.constant(declared), fc.array(argumentsArbitrary(declared), { maxLength: 3 })),
        ),
        profile,
        fc.integer(),
        ([declared, values], route, seed) => {
          const door = new RouteDoor(route, 'prop')
          const intake = intakeToolList([{ name: 'svc.tool', inputSchema: declared }], {
            server: 'prop',
            policy: 'spec',
            profile: route,
          })
          const served = door.servePage(intake).tools[0]
          if (served === undefined) return // the route refuses even the wire: left out, nothing to call
          const contract = createToolContract(declared, { tool: 'svc.tool', source: 'prop' })
          const projection = contract.projection(route)
          expect(served.inputSchema).toEqual(projection.wire)
          let state = seed >>> 0
          // The encoder's choice among equally valid writings, seeded so a failure replays.
          const pick = (count: number) => {
            state = (state * 1103515245 + 12345) >>> 0
            return state % count
          }
          for (const value of values) {
            const encoded = encodeForWire(value as JsonValue, {
              root: projection.wire,
              check: new WireCheck(route, projection.wire),
              renames: renamedKeys(projection.changes),
              pick,
              filled: [],
              path: [],
            })
            if ('unsendable' in encoded) continue
            const outbound = door.toServer(call(served.name, encoded.sent))
            const delivered = outbound.kind === 'changed' ? outbound.message : call(served.name, encoded.sent)
            // The door hands the server exactly what the contract reads back, under the declared name.
            expect(delivered).toEqual(call('svc.tool', contract.normalizeArguments(encoded.sent, route)))
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})

/** Declared key → wire keys, from the projection's own report of what it renamed. */
function renamedKeys(changes: readonly { action: string; pointer: string; detail: string }[]) {
  const table = new Map<string, string[]>()
  for (const change of changes) {
    if (change.action !== 'renamed') continue
    const declared = change.pointer.split('/').at(-1)
    const wire = /^sent as ("(?:[^"\\]|\\.)*")/.exec(change.detail)?.[1]
    if (declared === undefined || wire === undefined) continue
    table.set(declared, [...(table.get(declared) ?? []), JSON.parse(wire) as string])
  }
  return table
}
