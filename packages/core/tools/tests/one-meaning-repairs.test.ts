import { describe, expect, it } from 'vitest'
import {
  createToolContract,
  enforceToolParameters,
  isRepairable,
  type JsonObject,
  JsonSchemaError,
  judgeMcpSchema,
  type RepairReport,
  type SchemaViolation,
} from '../src/index.ts'

/**
 * The shapes public reports show, declared by a plugin (issue 24 item 3): each has exactly one meaning, the MCP
 * boundary serves it, and so does the plugin path in `mode: repair`; in the default mode the refusal offers it.
 */
const TOOL = { tool: 'search', source: 'acme-plugin' }

function repair(parameters: unknown): { schema: JsonObject; report: RepairReport | undefined } {
  let report: RepairReport | undefined
  const schema = enforceToolParameters(parameters, TOOL, {
    mode: 'repair',
    onRepair: (r) => {
      report = r
    },
  }) as JsonObject
  return { schema, report }
}

function refusal(parameters: unknown): JsonSchemaError {
  try {
    enforceToolParameters(parameters, TOOL)
  } catch (error) {
    if (error instanceof JsonSchemaError) return error
    throw error
  }
  throw new Error('expected a JsonSchemaError')
}

const where = (violations: readonly SchemaViolation[]) => violations.map((v) => [v.pointer, v.rule])
const OFFER = '; or set `mode: repair` in the dsh-harden row to serve the tool '

const REPORTED: readonly {
  name: string
  declared: unknown
  served: JsonObject
  found: [string, string][]
}[] = [
  {
    // earendil-works/pi#7010, farion1231/cc-switch#7023: "Invalid schema for function 'mcp': null is not of type "array"".
    name: '`required: null` (pi#7010, cc-switch#7023)',
    declared: { type: 'object', properties: { q: { type: 'string' } }, required: null },
    served: { type: 'object', properties: { q: { type: 'string' } } },
    found: [['/required', 'required-not-array']],
  },
  {
    // Go's nil slices and maps marshal as null, at any depth.
    name: '`required: null` and `properties: null` nested (a Go server marshalling nil)',
    declared: {
      type: 'object',
      properties: { filter: { type: 'object', properties: null, required: null } },
      required: ['filter'],
    },
    served: {
      type: 'object',
      properties: { filter: { type: 'object', properties: {} } },
      required: ['filter'],
    },
    found: [
      ['/properties/filter/properties', 'keyword-type'],
      ['/properties/filter/required', 'required-not-array'],
    ],
  },
  {
    name: '`properties: null` at the root',
    declared: { type: 'object', properties: null },
    served: { type: 'object', properties: {} },
    found: [['/properties', 'keyword-type']],
  },
  {
    // kaeawc/auto-mobile#973 (MCP SDK: expected "object" at inputSchema.type); Anthropic: "input_schema does not
    // support oneOf, allOf, or anyOf at the top level" (aliargun/mcp-server-gemini#8).
    name: 'a root anyOf of object schemas (auto-mobile#973)',
    declared: {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      ],
    },
    served: {
      type: 'object',
      // Each branch is open: the key one branch declares takes any value in the other.
      properties: { id: {}, text: {} },
      if: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      else: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    found: [['', 'root-union']],
  },
  {
    // zod 4 through zod-to-json-schema emits only `$schema` for an empty object (server-filesystem 2025.8.21).
    name: 'a root of only `$schema` (zod 4, server-filesystem 2025.8.21)',
    declared: { $schema: 'http://json-schema.org/draft-07/schema#' },
    served: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
    found: [['', 'root-empty']],
  },
  {
    // iBUHub/AIStudioToAPI#154: browser_click, Gemini "required[0]: property is not defined".
    name: 'a required name `properties` does not declare (AIStudioToAPI#154)',
    declared: { type: 'object', properties: {}, required: ['ref'] },
    served: { type: 'object', properties: { ref: {} }, required: ['ref'] },
    found: [['/required/0', 'required-undeclared']],
  },
]

describe('mode: repair serves each reported shape, as the MCP boundary does', () => {
  for (const { name, declared, served, found } of REPORTED) {
    it(name, () => {
      const { schema, report } = repair(structuredClone(declared))
      expect(schema).toEqual(served)
      expect(where(report?.repaired ?? [])).toEqual(
        // A union's repair is reported where the union is.
        found.map(([pointer, rule]) => [rule === 'root-union' && pointer === '' ? '/anyOf' : pointer, rule]),
      )
      const mcp = judgeMcpSchema(structuredClone(declared), 'inputSchema', { policy: 'contract' })
      expect(mcp).toMatchObject({ kind: 'repaired', schema: served })
    })
  }

  it('the contract DSH registers validates calls against the repaired schema, which means the same', () => {
    const contract = createToolContract(REPORTED[3]!.declared, TOOL, { mode: 'repair' })
    expect(contract.validate({ id: 'a' })).toEqual([])
    expect(contract.validate({ text: 'b' })).toEqual([])
    expect(contract.validate({ id: 1 })).not.toEqual([])
  })
})

describe('refuse mode (the default): the refusal offers the repair', () => {
  for (const { name, declared, found } of REPORTED) {
    it(`${name}: each hint says what mode: repair would serve`, () => {
      const error = refusal(structuredClone(declared))
      expect(where(error.details)).toEqual(found)
      expect(isRepairable(error.details)).toBe(true)
      for (const detail of error.details) {
        expect(detail.repairable).toBe(true)
        expect(detail.hint).toContain(OFFER)
      }
      expect(error.message).toContain('(fix: ')
    })
  }

  it('a bare property table: the hint says it would be served as an object root with the table as properties', () => {
    const error = refusal({ prompt: { type: 'string', enum: ['sk-live-secret'] } })
    expect(error.details[0]?.hint).toBe(
      "wrap it: { type: 'object', properties: <this table>, required: [...] }" +
        `${OFFER}as { type: 'object', properties: <this table> }`,
    )
  })

  it('no offer when one mistake has no single meaning: every violation says repairable: false', () => {
    const error = refusal({ type: 'object', properties: { a: { type: 'json' } }, required: null })
    expect(isRepairable(error.details)).toBe(false)
    for (const detail of error.details) {
      expect(detail.repairable).toBe(false)
      expect(detail.hint).not.toContain('mode: repair')
    }
  })

  it('a root union with a branch that is no object schema is refused naming the branch, with no offer', () => {
    const error = refusal({ anyOf: [{ type: 'object', properties: {} }, { type: 'string' }, true] })
    expect(where(error.details)).toEqual([['/anyOf/2', 'root-union']])
    expect(error.details[0]?.message).toMatch(/branch 2/)
    expect(isRepairable(error.details)).toBe(false)
  })

  it('never quotes a schema value: a secret in an enum, const, default or description reaches no message or hint', () => {
    const secret = 'sk-live-0123456789'
    const error = refusal({
      $comment: secret,
      anyOf: [
        {
          type: 'object',
          properties: {
            mode: { enum: [secret] },
            key: { const: secret, description: secret },
            n: { type: 'string', default: secret, required: true },
          },
          required: null,
        },
      ],
    })
    expect(isRepairable(error.details)).toBe(true)
    expect(error.message).not.toContain(secret)
    expect(JSON.stringify(error.details.map((d) => [d.message, d.hint]))).not.toContain(secret)
  })
})

describe('what still has no single meaning is refused in mode: repair too', () => {
  const refused: [string, unknown][] = [
    ['`required` as a string', { type: 'object', properties: { a: {} }, required: 'a' }],
    ['`properties` as a list', { type: 'object', properties: [] }],
    ['a root allOf', { allOf: [{ type: 'object', properties: {} }] }],
    ['a root with both anyOf and oneOf', { type: 'object', anyOf: [{}], oneOf: [{}] }],
    ['a root union beside its own if', { anyOf: [{ type: 'object' }], if: {} }],
    [
      'a required name under patternProperties',
      { type: 'object', patternProperties: { '^r': {} }, required: ['r'] },
    ],
    ['a root $ref to a string schema', { $ref: '#/$defs/S', $defs: { S: { type: 'string' } } }],
  ]
  for (const [name, parameters] of refused) {
    it(name, () => {
      expect(() => repair(parameters)).toThrow(JsonSchemaError)
    })
  }
})

describe('bounded work on wide repairs', () => {
  it('a 20,000-property table with `required: true` on each is served with each name required once', () => {
    const table: JsonObject = {}
    for (let i = 0; i < 20_000; i++) table[`p${i}`] = { type: 'string', required: true }
    const { schema } = repair(table)
    const required = schema.required as string[]
    expect(required).toHaveLength(20_000)
    expect(new Set(required).size).toBe(20_000)
  })
})
