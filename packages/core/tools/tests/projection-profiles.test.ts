import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  createToolContract,
  type JsonObject,
  JsonSchemaError,
  PROFILE_IDS,
  type ProfileId,
  profileRules,
  projectParameters,
  ToolArgsError,
} from '../src/index.ts'

const TOOL = { tool: 'unit', source: 'tests' }
const JSON_TEXT_NOTE = 'Send this value as JSON text; it is parsed before the tool runs.'

function wireOf(schema: JsonObject, profile: ProfileId): JsonObject {
  const { wire } = projectParameters(schema, profile)
  expect(checkProfileContract(wire, profile)).toEqual([])
  expect(projectParameters(wire, profile).wire).toBe(wire)
  return wire
}

function prop(wire: JsonObject, name: string): JsonObject {
  return (wire.properties as JsonObject)[name] as JsonObject
}

function root(properties: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: 'object', properties, ...extra }
}

describe('#1122 shapes', () => {
  const inspect: JsonObject = {
    type: 'object',
    properties: {
      platform: { type: 'string', enum: ['host', 'client'] },
      input: { description: 'The query, as an object' },
    },
    required: ['platform'],
  }

  it('cordis_inspect_query: under deepseek `input` goes as JSON text and reads back as the object', () => {
    const wire = wireOf(inspect, 'deepseek')
    expect(prop(wire, 'input')).toEqual({
      type: 'string',
      description: `The query, as an object. ${JSON_TEXT_NOTE}`,
    })
    expect(prop(wire, 'platform')).toEqual((inspect.properties as JsonObject).platform)
    const contract = createToolContract(inspect, TOOL)
    expect(
      contract.parseArguments({ platform: 'host', input: '{"path":"a.b","depth":2}' }, 'deepseek'),
    ).toEqual({
      platform: 'host',
      input: { path: 'a.b', depth: 2 },
    })
    // not JSON text: a plain string is itself the JSON value
    expect(contract.parseArguments({ platform: 'host', input: 'plain words' }, 'deepseek')).toEqual({
      platform: 'host',
      input: 'plain words',
    })
  })

  it('cordis_inspect_query: every profile sends an input the route accepts, and reads the object back', () => {
    const contract = createToolContract(inspect, TOOL)
    for (const p of PROFILE_IDS) {
      wireOf(inspect, p)
      // dsh-subset sends the slot untyped (what DSH's own subset takes): nothing is encoded, so text stays text
      expect(contract.parseArguments({ platform: 'client', input: '{"a":[1]}' }, p), p).toEqual({
        platform: 'client',
        input: p === 'dsh-subset' ? '{"a":[1]}' : { a: [1] },
      })
      expect(contract.parseArguments({ platform: 'client', input: { a: [1] } }, p), p).toEqual({
        platform: 'client',
        input: { a: [1] },
      })
    }
  })

  const define: JsonObject = {
    type: 'object',
    properties: {
      plugin: {
        oneOf: [
          {
            type: 'object',
            properties: { name: { type: 'string' }, config: { type: 'object' } },
            required: ['name'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { path: { type: 'string' } },
            required: ['path'],
            additionalProperties: false,
          },
        ],
      },
      note: { type: 'string' },
    },
    required: ['plugin'],
  }

  it('cordis_define: a stringified plugin object is parsed into the oneOf branch it matches', () => {
    const contract = createToolContract(define, TOOL)
    for (const p of PROFILE_IDS) {
      expect(contract.parseArguments({ plugin: '{"name":"cron"}' }, p), p).toEqual({
        plugin: { name: 'cron' },
      })
      expect(contract.parseArguments({ plugin: '{"path":"./x.js"}' }, p), p).toEqual({
        plugin: { path: './x.js' },
      })
    }
  })

  it('cordis_define: a string slot holding JSON text stays the very same string', () => {
    const contract = createToolContract(define, TOOL)
    const note = '{"name":"cron"}'
    for (const p of PROFILE_IDS) {
      const parsed = contract.parseArguments({ plugin: { path: 'x' }, note }, p) as { note: unknown }
      expect(parsed.note, p).toBe(note)
    }
  })

  it('cordis_define: a stringified object matching no branch is a ToolArgsError, not a crash', () => {
    const contract = createToolContract(define, TOOL)
    expect(() => contract.parseArguments({ plugin: '{"other":1}' }, 'deepseek')).toThrow(ToolArgsError)
  })
})

describe('gemini', () => {
  it('writes a type list with null as nullable, and a wider one as anyOf (nullable)', () => {
    const wire = wireOf(
      root({
        a: { type: ['string', 'null'] },
        b: { type: ['string', 'integer'] },
        c: { type: ['string', 'integer', 'null'] },
      }),
      'gemini',
    )
    expect(prop(wire, 'a')).toEqual({ type: 'string', nullable: true })
    expect(prop(wire, 'b')).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] })
    expect(prop(wire, 'c')).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true })
  })

  it('folds a { type: "null" } branch into nullable', () => {
    const wire = wireOf(root({ a: { anyOf: [{ type: 'integer' }, { type: 'null' }] } }), 'gemini')
    expect(prop(wire, 'a')).toEqual({ type: 'integer', nullable: true })
  })

  it('keeps a declared nullable flag (OpenAPI style), so projecting is idempotent', () => {
    const declared = root({ a: { type: 'string', nullable: true } })
    expect(projectParameters(declared, 'gemini').wire).toBe(declared)
  })

  it('writes a string const as a one-value enum, and a non-string const as its JSON text', () => {
    const wire = wireOf(root({ a: { const: 'v1' }, b: { const: 3 } }), 'gemini')
    expect(prop(wire, 'a')).toEqual({ type: 'string', enum: ['v1'] })
    expect(prop(wire, 'b')).toMatchObject({ type: 'string', enum: ['3'] })
  })

  // "enum: only allowed for STRING type" (nanbingxyz/5ire#218); "Invalid value at '…enum[0]' (TYPE_STRING), 0"
  // (anomalyco/opencode#4512): the integer enum travels as strings and is read back as numbers.
  it('sends an integer enum as strings and reads the choice back as the number', () => {
    const contract = createToolContract(
      root({ level: { type: 'integer', enum: [1, 2, 3], description: 'Level' } }, { required: ['level'] }),
      TOOL,
    )
    expect(prop(wireOf(contract.declared, 'gemini'), 'level')).toEqual({
      type: 'string',
      enum: ['1', '2', '3'],
      description:
        'Level. Send one of the listed values as written; it is read back as the JSON value it spells.',
    })
    expect(contract.parseArguments({ level: '2' }, 'gemini')).toEqual({ level: 2 })
    expect(() => contract.parseArguments({ level: '4' }, 'gemini')).toThrow(/level/)
  })

  it('an optional integer enum that admits null takes "null" as one more value', () => {
    const contract = createToolContract(
      root({ level: { anyOf: [{ enum: [1, 2] }, { type: 'null' }] } }),
      TOOL,
    )
    expect(prop(wireOf(contract.declared, 'gemini'), 'level').enum).toEqual(['1', '2', 'null'])
    expect(contract.parseArguments({ level: 'null' }, 'gemini')).toEqual({ level: null })
  })

  it('drops additionalProperties (false is spilled, a schema is spilled)', () => {
    const wire = wireOf(
      root(
        { m: { type: 'object', additionalProperties: { type: 'string' } } },
        { additionalProperties: false },
      ),
      'gemini',
    )
    expect(wire.additionalProperties).toBeUndefined()
    expect(wire.description).toBe('Constraints: additionalProperties: false.')
    expect(prop(wire, 'm')).toEqual({
      type: 'object',
      description: 'Constraints: additionalProperties: {"type":"string"}.',
    })
  })

  it('a null-only slot goes as JSON text', () => {
    const contract = createToolContract(root({ n: { type: 'null' } }), TOOL)
    const wire = wireOf(contract.declared, 'gemini')
    expect(prop(wire, 'n').type).toBe('string')
    expect(contract.parseArguments({ n: 'null' }, 'gemini')).toEqual({ n: null })
  })
})

describe('openai-strict', () => {
  const declared = root(
    { name: { type: 'string' }, limit: { type: 'integer' }, tag: { type: ['string', 'null'] } },
    { required: ['name'] },
  )

  it('closes objects, requires every property, and widens the optional ones to nullable', () => {
    const wire = wireOf(declared, 'openai-strict')
    expect(wire.additionalProperties).toBe(false)
    expect(wire.required).toEqual(['name', 'limit', 'tag'])
    expect(prop(wire, 'limit')).toEqual({ type: ['integer', 'null'] })
    expect(prop(wire, 'tag')).toEqual({ type: ['string', 'null'] })
  })

  it('reads a synthetic null back as absent, and keeps a null the declared schema admits', () => {
    const contract = createToolContract(declared, TOOL)
    expect(contract.parseArguments({ name: 'a', limit: null, tag: null }, 'openai-strict')).toEqual({
      name: 'a',
      tag: null,
    })
  })

  it('sends open maps and objects without properties as JSON text', () => {
    const schema = root({
      env: { type: 'object', additionalProperties: { type: 'string' } },
      opts: { type: 'object' },
    })
    const wire = wireOf(schema, 'openai-strict')
    expect(prop(wire, 'opts')).toEqual({ type: ['string', 'null'], description: JSON_TEXT_NOTE })
    expect((prop(wire, 'env').type as string[])[0]).toBe('string')
    const contract = createToolContract(schema, TOOL)
    expect(contract.parseArguments({ env: '{"A":"1"}', opts: null }, 'openai-strict')).toEqual({
      env: { A: '1' },
    })
  })

  it('writes oneOf as anyOf', () => {
    const wire = wireOf(
      root({ v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, { required: ['v'] }),
      'openai-strict',
    )
    expect(prop(wire, 'v')).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] })
  })

  it('a oneOf whose branch goes as JSON text is not sent as a oneOf that rejects every string', () => {
    const schema = root({ v: { oneOf: [{ type: 'string' }, { type: 'object' }] } }, { required: ['v'] })
    const contract = createToolContract(schema, TOOL)
    for (const p of PROFILE_IDS) {
      const v = prop(contract.projection(p).wire, 'v')
      if (Array.isArray(v.oneOf))
        expect(new Set(v.oneOf.map((b) => JSON.stringify((b as JsonObject).type))).size, p).toBe(
          v.oneOf.length,
        )
      expect(contract.parseArguments({ v: 'text' }, p), p).toEqual({ v: 'text' })
    }
  })
})

describe('codex', () => {
  const declared = root(
    { path: { type: 'string' }, mode: { type: 'string', enum: ['ro', 'rw'] } },
    { required: ['path'] },
  )

  it('widens optional fields to nullable without requiring them (#1149)', () => {
    const wire = wireOf(declared, 'codex')
    expect(wire.required).toEqual(['path'])
    expect(wire.additionalProperties).toBeUndefined()
    expect(prop(wire, 'path')).toEqual({ type: 'string' })
    expect(prop(wire, 'mode')).toEqual({ type: ['string', 'null'], enum: ['ro', 'rw', null] })
    const contract = createToolContract(declared, TOOL)
    expect(contract.parseArguments({ path: 'a', mode: null }, 'codex')).toEqual({ path: 'a' })
  })

  it('a constraint union beside a type widens as one alternative beside null', () => {
    const schema = root({ s: { type: 'string', anyOf: [{ minLength: 1 }, { pattern: '^x' }] } })
    const wire = wireOf(schema, 'codex')
    expect(prop(wire, 's')).toEqual({
      anyOf: [{ type: 'string', anyOf: [{ minLength: 1 }, { pattern: '^x' }] }, { type: 'null' }],
    })
  })

  it('a property that must be absent may only be null on the wire, and null reads as absent', () => {
    const contract = createToolContract(root({ gone: false, a: { type: 'string' } }), TOOL)
    expect(prop(wireOf(contract.declared, 'codex'), 'gone')).toEqual({ type: 'null' })
    expect(contract.parseArguments({ gone: null, a: 'x' }, 'codex')).toEqual({ a: 'x' })
  })
})

describe('anthropic', () => {
  it('writes tuple items as prefixItems and drops $schema', () => {
    const declared = root(
      { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false } },
      { $schema: 'http://json-schema.org/draft-07/schema#' },
    )
    const wire = wireOf(declared, 'anthropic')
    expect(wire.$schema).toBeUndefined()
    expect(prop(wire, 'pair')).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
      items: false,
    })
  })

  it('passes an already acceptable schema through as the very same object', () => {
    const declared = root({ q: { type: 'string', minLength: 1 } }, { required: ['q'] })
    expect(projectParameters(declared, 'anthropic').wire).toBe(declared)
  })
})

describe('dsh-subset', () => {
  it('writes an anyOf of disjoint types as oneOf', () => {
    const wire = wireOf(root({ v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }), 'dsh-subset')
    expect(prop(wire, 'v')).toEqual({ oneOf: [{ type: 'string' }, { type: 'integer' }] })
  })

  it('spills an overlapping anyOf into an untyped slot', () => {
    const wire = wireOf(
      root({ v: { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] } }),
      'dsh-subset',
    )
    expect(prop(wire, 'v')).toEqual({
      description: 'Constraints: anyOf: [{"type":"string"},{"type":"string","minLength":2}].',
    })
  })

  it('writes a type list as oneOf', () => {
    const wire = wireOf(root({ v: { type: ['string', 'null'] } }), 'dsh-subset')
    expect(prop(wire, 'v')).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] })
  })

  it('spills bounds and formats into the description', () => {
    const wire = wireOf(
      root({ n: { type: 'integer', minimum: 1, maximum: 9 }, d: { type: 'string', format: 'date-time' } }),
      'dsh-subset',
    )
    expect(prop(wire, 'n')).toEqual({ type: 'integer', description: 'Constraints: minimum: 1; maximum: 9.' })
    expect(prop(wire, 'd')).toEqual({ type: 'string', description: 'Constraints: format: "date-time".' })
  })

  it('a oneOf whose branch cannot be said is spilled, not sent with overlapping branches', () => {
    const wire = wireOf(
      root({ v: { anyOf: [{ type: 'integer' }, { type: 'array', items: [{ type: 'string' }] }] } }),
      'dsh-subset',
    )
    expect(prop(wire, 'v').oneOf).toBeUndefined()
  })

  it('enum and const only on scalar types', () => {
    const wire = wireOf(root({ v: { const: ['a'] } }), 'dsh-subset')
    expect(prop(wire, 'v')).toEqual({ type: 'array', description: 'Constraints: const: ["a"].' })
  })
})

describe('every profile', () => {
  const defs: JsonObject = {
    type: 'object',
    $defs: {
      Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
      Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } } },
    },
    properties: { at: { $ref: '#/$defs/Point' }, list: { $ref: '#/$defs/Node' } },
    required: ['at'],
    $comment: 'generated',
    $id: 'urn:tool',
  }

  /** The wire schema a kept `$ref` names (at the root's `$defs`, or inside a root property on anthropic). */
  const through = (wire: JsonObject, node: JsonObject): JsonObject => {
    if (typeof node.$ref !== 'string') return node
    const segments = node.$ref.slice(2).split('/')
    return segments.reduce<JsonObject>((at, segment) => at[segment] as JsonObject, wire)
  }
  const keepsRecursion = new Set(['deepseek', 'openai', 'anthropic', 'vllm'])

  it('keeps $ref and sends each definition once where the route takes references, inlines where not, drops metadata', () => {
    for (const p of PROFILE_IDS) {
      const wire = wireOf(defs, p)
      const text = JSON.stringify(wire)
      expect(text, p).not.toContain('$comment')
      expect(text, p).not.toContain('$id')
      expect(checkProfileContract(wire, p), p).toEqual([])
      const at = prop(wire, 'at')
      if (profileRules(p).refs.maps.size === 0) {
        expect(text, p).not.toContain('$ref')
        expect(text, p).not.toContain('$defs')
      } else {
        // Point is defined once on the wire and referenced, as declared (anthropic: inside the first property).
        expect(text.split('"x":').length - 1, p).toBe(1)
        expect((at.anyOf as JsonObject[] | undefined)?.[0]?.$ref ?? at.$ref, p).toMatch(/\/\$defs\/Point$/)
      }
      const point = through(wire, (at.anyOf as JsonObject[] | undefined)?.[0] ?? at)
      expect((point.properties as JsonObject).x, p).toMatchObject({ type: expect.anything() })
      const listWire = prop(wire, 'list')
      const list = through(wire, (listWire.anyOf as JsonObject[] | undefined)?.[0] ?? listWire)
      const next = (list.properties as JsonObject).next as JsonObject
      if (p === 'dsh-subset') expect(next, p).toEqual({})
      // A cycle stays a cycle where the route takes one and nothing in it needs decoding; elsewhere JSON text.
      else if (keepsRecursion.has(p)) expect(next.$ref, p).toMatch(/\/\$defs\/Node$/)
      else expect(next.description, p).toContain(JSON_TEXT_NOTE)
    }
  })

  it('with $ref kept, the wire is the declared schema itself (anthropic: its map moved into the first property)', () => {
    const { $comment: _c, $id: _i, ...plain } = defs
    const point = (plain.$defs as JsonObject).Point as JsonObject
    for (const p of ['deepseek', 'openai', 'codex', 'gemini', 'moonshot'] as const) {
      const refs = {
        type: 'object',
        $defs: { Point: point },
        properties: { at: { $ref: '#/$defs/Point' } },
        required: ['at'],
      }
      expect(projectParameters(refs, p).wire, p).toBe(refs)
    }
    expect(projectParameters(plain, 'deepseek').wire).toBe(plain)
    // pi-ai sends only the root's properties and required: the three references gain `/properties/at` each.
    const anthropic = JSON.stringify(projectParameters(plain, 'anthropic').wire).length
    expect(anthropic).toBe(JSON.stringify(plain).length + 3 * '/properties/at'.length)
  })

  it('a recursive value reads back as the nested object, whether the wire keeps the cycle or sends it as JSON text', () => {
    const contract = createToolContract(defs, TOOL)
    for (const p of PROFILE_IDS) {
      const nested = { value: 'b', next: { value: 'c' } }
      const text = p !== 'dsh-subset' && !keepsRecursion.has(p)
      const args = { at: { x: 1 }, list: { value: 'a', next: text ? JSON.stringify(nested) : nested } }
      const parsed = contract.parseArguments(args, p) as { list: { next: unknown } }
      expect(parsed.list.next, p).toMatchObject({ value: 'b' })
    }
  })

  it('a root $ref to itself keeps an object root', () => {
    const declared = { $ref: '#', type: 'object', properties: { a: { type: 'string' } } } as JsonObject
    for (const p of PROFILE_IDS) expect(wireOf(declared, p).type, p).toBe('object')
    // ajv could not evaluate it (it recurses forever), so the root contract refuses it when the tool loads.
    expect(() => createToolContract(declared, TOOL)).toThrow(JsonSchemaError)
  })

  it('an accepted empty description is kept as it is', () => {
    const declared = root({ a: { type: 'string', description: '' } })
    expect(projectParameters(declared, 'deepseek').wire).toBe(declared)
  })

  it('a declared property keeps its own decoder next to an any-JSON additionalProperties', () => {
    const contract = createToolContract(
      root({ note: { type: 'string' } }, { additionalProperties: {} }),
      TOOL,
    )
    expect(contract.parseArguments({ note: '{}', extra: '{"a":1}' }, 'deepseek')).toEqual({
      note: '{}',
      extra: { a: 1 },
    })
  })
})
