import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  createToolContract,
  type JsonObject,
  judgeMcpToolList,
  judgeRoute,
  PROFILE_IDS,
  projectParameters,
} from '../src/index.ts'
import { meetsName, renameAll } from '../src/projection/names.ts'
import { profileRules } from '../src/projection/profiles.ts'
import { regexFeatures } from '../src/projection/regex-features.ts'

/** Issue 16 item 2: each route rule, from the reported error (quoted in PROFILES.md) or the real server's schema. */
const TOOL = { tool: 'unit', source: 'tests' }
const root = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: 'object',
  properties,
  ...extra,
})
const prop = (wire: JsonObject, name: string): JsonObject =>
  (wire.properties as JsonObject)[name] as JsonObject

describe('array without items', () => {
  // sigoden/aichat#1049: "Invalid schema for function 'filesystem_read_multiple_files': In context=('properties',
  // 'paths'), array schema missing items." (a non-strict OpenAI request).
  const declared = root({ paths: { type: 'array' } }, { required: ['paths'] })

  it('is refused stock on openai and codex, and sent with items there', () => {
    for (const profile of ['openai', 'codex'] as const) {
      expect(judgeRoute(declared, profile).refusals.map((v) => v.message)).toEqual([
        `${profile}: an array without items`,
      ])
      const wire = projectParameters(declared, profile).wire
      expect(prop(wire, 'paths').items).toBeDefined()
      expect(checkProfileContract(wire, profile)).toEqual([])
    }
  })

  it('reads any JSON items back (the declared array admits any item)', () => {
    const contract = createToolContract(declared, TOOL)
    expect(contract.parseArguments({ paths: ['"a"', '{"b":1}'] }, 'openai')).toEqual({
      paths: ['a', { b: 1 }],
    })
  })

  it('deepseek and anthropic (no source reports it) still get it as declared', () => {
    for (const profile of ['deepseek', 'anthropic'] as const)
      expect(projectParameters(declared, profile).wire).toBe(declared)
  })
})

describe('regex constructs a route engine refuses', () => {
  // anomalyco/opencode#32073: "Invalid JSON schema: regex lookaround is not supported. Found at
  // $.properties.fileKey.pattern." (Responses API); decolua/9router#1556 the same for `email` on codex.
  const email = root({
    email: {
      type: 'string',
      pattern:
        "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
    },
  })

  it('lookaround (zod 4 z.email()) is spilled on openai, openai-strict and codex, and still enforced locally', () => {
    for (const profile of ['openai', 'openai-strict', 'codex'] as const) {
      expect(judgeRoute(email, profile).refusals.some((v) => v.pointer === '/properties/email/pattern')).toBe(
        true,
      )
      const wire = projectParameters(email, profile).wire
      expect(prop(wire, 'email')).not.toHaveProperty('pattern')
      expect(prop(wire, 'email').description).toMatch(/pattern/)
      expect(checkProfileContract(wire, profile)).toEqual([])
    }
  })

  it('a \\p{…} pattern (Python re has none: BerriAI/litellm PR #40485) is spilled on openai and still enforced locally', () => {
    const declared = root({ name: { type: 'string', pattern: '^\\p{Lu}' } }, { required: ['name'] })
    expect(prop(projectParameters(declared, 'openai').wire, 'name')).not.toHaveProperty('pattern')
    const contract = createToolContract(declared, TOOL)
    expect(() => contract.parseArguments({ name: 'abc' }, 'openai')).toThrow(/name/)
    expect(contract.parseArguments({ name: 'Abc' }, 'openai')).toEqual({ name: 'Abc' })
  })

  it('anthropic takes lookaround as sent (tombii/better-ccflare#357)', () => {
    expect(projectParameters(email, 'anthropic').wire).toBe(email)
  })

  // zed-industries/zed#64386: DeepSeek: "Invalid schema for function 'dataset_assets_upload_from_url':
  // \"^[^/\\\\\\0]+$\" is not a \"regex\"".
  it('the pattern DeepSeek refused is not sent on deepseek, and is still enforced locally', () => {
    const declared = root({ name: { type: 'string', pattern: '^[^/\\\\\\0]+$' } }, { required: ['name'] })
    const wire = projectParameters(declared, 'deepseek').wire
    expect(prop(wire, 'name')).not.toHaveProperty('pattern')
    expect(checkProfileContract(wire, 'deepseek')).toEqual([])
    const contract = createToolContract(declared, TOOL)
    expect(() => contract.parseArguments({ name: 'a/b' }, 'deepseek')).toThrow(/name/)
    expect(contract.parseArguments({ name: 'ab' }, 'deepseek')).toEqual({ name: 'ab' })
    // OpenAI's engine is not reported to refuse it.
    expect(prop(projectParameters(declared, 'openai').wire, 'name').pattern).toBe('^[^/\\\\\\0]+$')
  })

  it('reads constructs outside classes and escapes only', () => {
    expect([...regexFeatures('^(?=a)b$')]).toEqual(['lookaround'])
    expect([...regexFeatures('(?<!x)y')]).toEqual(['lookaround'])
    expect([...regexFeatures('[(?=]')]).toEqual([])
    expect([...regexFeatures('\\(?=')]).toEqual([])
    expect([...regexFeatures('(a)\\1')]).toEqual(['backreference'])
    expect([...regexFeatures('\\p{L}+')]).toEqual(['unicode-property'])
    expect([...regexFeatures('(?<year>\\d{4})')]).toEqual(['named-group'])
    expect([...regexFeatures('^[a-z0-9_-]+$')]).toEqual([])
  })
})

describe('Anthropic property keys ^[a-zA-Z0-9_.-]{1,64}$', () => {
  // PrefectHQ/fastmcp#839: "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"; erikmaday/unusual-whales-mcp
  // PR #57: keys `rule_name[]`, `issue_types[]`.
  const declared = root(
    {
      'rule_name[]': { type: 'array', items: { type: 'string' } },
      'issue_types[]': { type: 'array', items: { type: 'string' } },
      ticker: { type: 'string' },
      nested: { type: 'object', properties: { 'filter[name]': { type: 'string' } } },
    },
    { required: ['ticker', 'rule_name[]'] },
  )

  it('keys are renamed on the wire at every depth, the wire meets the pattern', () => {
    expect(judgeRoute(declared, 'anthropic').refusals.map((v) => v.pointer)).toEqual([
      '/properties/rule_name[]',
      '/properties/issue_types[]',
      '/properties/nested/properties/filter[name]',
    ])
    const wire = projectParameters(declared, 'anthropic').wire
    expect(Object.keys(wire.properties as JsonObject)).toEqual([
      'rule_name__',
      'issue_types__',
      'ticker',
      'nested',
    ])
    expect(wire.required).toEqual(['ticker', 'rule_name__'])
    expect(Object.keys(prop(wire, 'nested').properties as JsonObject)).toEqual(['filter_name_'])
    expect(checkProfileContract(wire, 'anthropic')).toEqual([])
  })

  it('the decoder maps the wire keys back before validation', () => {
    const contract = createToolContract(declared, TOOL)
    expect(
      contract.parseArguments(
        { rule_name__: ['a'], ticker: 'T', nested: { filter_name_: 'x' } },
        'anthropic',
      ),
    ).toEqual({ 'rule_name[]': ['a'], ticker: 'T', nested: { 'filter[name]': 'x' } })
  })
})

describe('tool names per route', () => {
  it('each profile has a source-quoted name rule, and DSH MCP names meet every one', () => {
    for (const profile of PROFILE_IDS) {
      const rule = profileRules(profile).toolNames
      expect(rule.text).toMatch(/^\^/)
      expect(meetsName('mcp__github__create_issue', rule)).toBe(true)
    }
    expect(meetsName('a.b:c', profileRules('gemini').toolNames)).toBe(true)
    expect(meetsName('a.b:c', profileRules('anthropic').toolNames)).toBe(false)
    expect(meetsName('1tool', profileRules('gemini').toolNames)).toBe(false)
    expect(meetsName('1tool', profileRules('moonshot').toolNames)).toBe(false)
    expect(meetsName('x'.repeat(65), profileRules('openai').toolNames)).toBe(false)
  })
})

describe('renameAll is a bijection onto names the route takes', () => {
  const rules = PROFILE_IDS.flatMap((p) => {
    const r = profileRules(p)
    return r.propertyKeys === undefined ? [r.toolNames] : [r.toolNames, r.propertyKeys]
  })
  const name = fc.oneof(
    fc.string({ minLength: 0, maxLength: 80 }),
    fc.stringMatching(/^[a-z_]{1,8}(\[\]|\[[a-z]+\]|\.[a-z]+|-[a-z]+|:[a-z]+)?$/),
    fc.constantFrom(
      'filter[name]',
      'filter_name_',
      'rule_name[]',
      'rule_name__',
      '1abc',
      '_1abc',
      'a'.repeat(70),
    ),
  )

  it('for any set of names: injective, decode ∘ encode = id, every wire name meets the rule', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 12 }), fc.constantFrom(...rules), (names, rule) => {
        const renames = renameAll(names, rule)
        const wire = names.map((n) => renames?.toWire.get(n) ?? n)
        expect(new Set(wire).size).toBe(names.length)
        for (const [i, n] of names.entries()) {
          expect(meetsName(wire[i]!, rule)).toBe(true)
          expect(renames?.fromWire.get(wire[i]!) ?? wire[i]).toBe(n)
          if (meetsName(n, rule)) expect(wire[i]).toBe(n)
        }
      }),
    )
  })
})

describe('local $refs the projection used not to resolve', () => {
  // gemini-cli#13326: "reference to undefined schema at properties.target_object.anyOf.1" (parametersJsonSchema);
  // Moonshot: "references must start with #/$defs/" (OnesoftQwQ/opencode-go-copilot#67): every ref is inlined.
  it('an $anchor reference is inlined on every profile; a percent-encoded pointer into $defs is kept where refs are', () => {
    const declared = root(
      { a: { $ref: '#tag' }, b: { $ref: '#/$defs/My%20Type' } },
      {
        $defs: { Tag: { $anchor: 'tag', type: 'string', enum: ['x', 'y'] }, 'My Type': { type: 'integer' } },
      },
    )
    const [verdict] = judgeMcpToolList([{ name: 'refs', inputSchema: declared }], { profile: 'deepseek' })
    expect(verdict?.status).toBe('accepted')
    for (const profile of PROFILE_IDS) {
      const wire = projectParameters(declared, profile).wire
      expect(JSON.stringify(prop(wire, 'a')), profile).not.toContain('$ref')
      const b = prop(wire, 'b')
      // Every route but DSH's own subset takes `#/$defs/…` (PROFILES.md, References): the pointer goes as written.
      if (profileRules(profile).refs.maps.size === 0) expect(b, profile).toEqual({ type: 'integer' })
      // (codex and openai-strict fill optional fields: the reference is one branch beside null there)
      else expect(b.$ref ?? (b.anyOf as JsonObject[])[0]!.$ref, profile).toMatch(/\/\$defs\/My%20Type$/)
      expect(checkProfileContract(wire, profile), profile).toEqual([])
    }
    expect(prop(projectParameters(declared, 'deepseek').wire, 'a')).toEqual({
      type: 'string',
      enum: ['x', 'y'],
    })
    expect(projectParameters(declared, 'deepseek').wire.$defs).toEqual({ 'My Type': { type: 'integer' } })
  })

  it('a reference that names nothing is refused at the boundary with its pointer', () => {
    const [verdict] = judgeMcpToolList(
      [
        {
          name: 'dangling',
          inputSchema: root({ target: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/Missing' }] } }),
        },
      ],
      { profile: 'gemini' },
    )
    expect(verdict?.status).toBe('isolated')
    expect(verdict?.problems[0]?.violations[0]).toMatchObject({
      pointer: '/properties/target/anyOf/1/$ref',
      rule: 'ref-unresolved',
    })
  })
})

describe('every issue-16 wire is one the MCP boundary serves on that route', () => {
  it('the boundary and the route contract agree on the reported shapes', () => {
    const shapes: JsonObject[] = [
      root({ paths: { type: 'array' } }),
      root({ email: { type: 'string', pattern: '^(?=.*@).+$' } }),
      root({ 'filter[name]': { type: 'string' } }),
      root({ level: { type: 'integer', enum: [1, 2, 3] } }),
    ]
    for (const profile of PROFILE_IDS)
      for (const [index, inputSchema] of shapes.entries()) {
        const [verdict] = judgeMcpToolList([{ name: `t${index}`, inputSchema }], { profile })
        expect(verdict?.status).not.toBe('isolated')
        expect(checkProfileContract(verdict?.projection?.input.wire as JsonObject, profile)).toEqual([])
      }
  })
})
