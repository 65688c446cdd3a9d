import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { en, zh } from '../client/src/locales.ts'
import {
  badgeLabel,
  findingKeys,
  groupRows,
  parseReply,
  parseView,
  pointerText,
  removeCommand,
} from '../client/src/model.ts'
import { RULES_EN } from '../client/src/rule-texts.ts'
import {
  type ContractRow,
  type ContractsView,
  type SchemaRule,
  VALIDATOR_CONSTRUCTS,
  VALIDATOR_FALLBACKS,
  VERDICT_KINDS,
  type VerdictKind,
} from '../src/web/index.ts'

/** The browser half's rules, without a browser: what the badge says, how rows group, what a response must be. */
const counts = fc.record(
  Object.fromEntries(VERDICT_KINDS.map((kind) => [kind, fc.nat({ max: 50 })])) as Record<
    VerdictKind,
    fc.Arbitrary<number>
  >,
)

const RULES = Object.keys(RULES_EN) as SchemaRule[]

const row: fc.Arbitrary<ContractRow> = fc.record({
  tool: fc.string({ minLength: 1 }),
  source: fc.option(fc.string(), { nil: null }),
  package: fc.option(fc.string(), { nil: null }),
  verdict: fc.constantFrom(...VERDICT_KINDS),
  early: fc.boolean(),
  findings: fc.array(fc.record({ pointer: fc.string(), rule: fc.constantFrom(...RULES) }), { maxLength: 3 }),
  moreFindings: fc.nat(),
  repairable: fc.boolean(),
  validator: fc.option(
    fc.record({
      construct: fc.constantFrom(...VALIDATOR_CONSTRUCTS),
      pointer: fc.option(fc.string(), { nil: null }),
      fallback: fc.constantFrom(...VALIDATOR_FALLBACKS),
    }),
    { nil: null },
  ),
})

const view: fc.Arbitrary<ContractsView> = fc.record({
  revision: fc.string(),
  counts,
  rows: fc.array(row, { maxLength: 12 }),
  omitted: fc.nat(),
  lintCommand: fc.option(fc.string(), { nil: null }),
})

function fill(template: string, params: Record<string, number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]))
}

describe('header badge', () => {
  it('shows only when something was withheld or repaired, and says how many in both languages', () => {
    fc.assert(
      fc.property(counts, (c) => {
        const label = badgeLabel(c)
        expect(label === undefined).toBe(c.withheld + c.repaired === 0)
        if (label === undefined) return
        for (const dictionary of [en, zh]) {
          const text = fill(dictionary[label.key], label.params)
          if (c.withheld > 0) expect(text).toContain(String(c.withheld))
          if (c.repaired > 0) expect(text).toContain(String(c.repaired))
        }
      }),
    )
  })

  it('uses the singular in English for exactly one tool', () => {
    const one = { withheld: 1, repaired: 0, 'fallback-validator': 0, accepted: 3 }
    const label = badgeLabel(one)!
    expect(fill(en[label.key], label.params)).toBe('1 tool withheld')
    const two = badgeLabel({ ...one, withheld: 2 })!
    expect(fill(en[two.key], two.params)).toBe('2 tools withheld')
  })
})

describe('panel rows', () => {
  it('groups rows by verdict in panel order, loses none and keeps their order within a group', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const groups = groupRows(rows)
        expect(groups.flatMap((group) => group.rows)).toHaveLength(rows.length)
        expect(groups.map((group) => VERDICT_KINDS.indexOf(group.verdict))).toEqual(
          [...new Set(rows.map((r) => VERDICT_KINDS.indexOf(r.verdict)))].sort((a, b) => a - b),
        )
        for (const group of groups)
          expect(group.rows).toEqual(rows.filter((candidate) => candidate.verdict === group.verdict))
      }),
    )
  })

  it('shows the empty pointer as the parameters root and any other pointer as it is', () => {
    expect(pointerText('', en.root)).toBe('(root)')
    expect(pointerText('/properties/q/required', en.root)).toBe('/properties/q/required')
  })
})

describe('parseView', () => {
  it('accepts every view the host half can send', () => {
    fc.assert(
      fc.property(view, (v) => {
        expect(parseView(JSON.parse(JSON.stringify(v)))).toEqual(v)
      }),
    )
  })

  it('says what is wrong with anything else, instead of rendering it', () => {
    fc.assert(
      fc.property(
        view,
        fc.constantFrom('revision', 'counts', 'rows', 'omitted'),
        fc.constantFrom(undefined, -1, 1.5, {}),
        (v, key, junk) => {
          const broken = { ...v, [key]: junk }
          expect(typeof parseView(JSON.parse(JSON.stringify(broken)) as unknown)).toBe('string')
        },
      ),
    )
    expect(parseView(null)).toBe('the response is not a JSON object')
    expect(parseView({ revision: 'r', counts: { withheld: 0 }, rows: [], omitted: 0 })).toBe(
      'the response has no verdict counts',
    )
    const badRow = {
      revision: 'r',
      counts: { withheld: 0, repaired: 0, 'fallback-validator': 0, accepted: 0 },
      rows: [{ tool: 'x', verdict: 'rejected' }],
      omitted: 0,
    }
    expect(parseView(badRow)).toBe('row 0 of the response is not a tool contract row')
  })

  it('reads an unchanged answer as one, and anything else as a view', () => {
    expect(parseReply({ unchanged: true, revision: 'r' })).toEqual({ unchanged: true, revision: 'r' })
    expect(typeof parseReply({ unchanged: true })).toBe('string')
  })
})

describe('what the user reads', () => {
  it('has a reason and a fix for every rule, in both languages, and none for a rule it does not know', () => {
    for (const rule of RULES) {
      const keys = findingKeys(rule)!
      for (const dictionary of [en, zh]) {
        expect(dictionary[keys.message], rule).toBeTruthy()
        expect(dictionary[keys.fix], rule).toBeTruthy()
      }
      // Translated, not copied: the Chinese reason is not the English one.
      expect(zh[keys.message], rule).not.toBe(en[keys.message])
      expect(zh[keys.message], rule).toMatch(/[\u4e00-\u9fff]/)
    }
    expect(findingKeys('a-rule-from-a-newer-host')).toBeUndefined()
    expect(findingKeys('toString')).toBeUndefined()
  })

  it('is plain text: no markdown backticks or emphasis anywhere in either dictionary', () => {
    for (const dictionary of [en, zh])
      for (const [key, text] of Object.entries(dictionary)) expect(text, key).not.toMatch(/`|\*\*/)
  })

  it('gives the user a remove command for the package, with no placeholder left', () => {
    expect(removeCommand('@acme/dsh-tools')).toBe('dsh plugin --profile web remove @acme/dsh-tools')
  })
})

describe('dictionaries', () => {
  it('have the same keys and the same placeholders in English and Chinese', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort())
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const key of Object.keys(zh) as (keyof typeof zh)[])
      expect(placeholders(en[key]), key).toEqual(placeholders(zh[key]))
  })
})
