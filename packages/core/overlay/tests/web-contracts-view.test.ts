import { JsonSchemaError, type SchemaViolation } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ToolVerdict } from '../src/dsh/verdicts.ts'
import { contractRow, contractsView, VERDICT_KINDS, VIEW_LIMITS } from '../src/web/index.ts'

/** The panel's projection of the verdict ledger: every verdict counted, important rows first, bounded, no schema. */
const violation: fc.Arbitrary<SchemaViolation> = fc.record({
  pointer: fc.oneof(
    fc.constant(''),
    fc.string().map((s) => `/properties/${s}`),
  ),
  rule: fc.constantFrom('bare-property-table', 'required-in-property', 'root-type-missing'),
  message: fc.string({ maxLength: 900 }).map((text) => `said-in-message:${text}`),
  hint: fc.string({ maxLength: 900 }),
}) as fc.Arbitrary<SchemaViolation>

const identity = fc.record({
  tool: fc.string({ minLength: 1, maxLength: 700 }),
  source: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
})

const verdict: fc.Arbitrary<ToolVerdict> = fc.oneof(
  fc.record({ kind: fc.constant('accepted' as const), identity, early: fc.boolean() }),
  fc
    .record({ identity, early: fc.boolean(), repaired: fc.array(violation, { minLength: 1, maxLength: 20 }) })
    .map(({ identity, early, repaired }) => ({
      kind: 'repaired' as const,
      identity,
      early,
      report: { identity, repaired },
    })),
  fc
    .record({ identity, early: fc.boolean(), details: fc.array(violation, { minLength: 1, maxLength: 20 }) })
    .map(({ identity, early, details }) => ({
      kind: 'withheld' as const,
      identity,
      early,
      error: new JsonSchemaError(identity, details),
    })),
  fc
    .record({
      identity,
      early: fc.boolean(),
      construct: fc.string().map((text) => `said-in-construct:${text}`),
      detail: fc.string({ minLength: 1 }),
    })
    .map(({ identity, early, construct, detail }) => ({
      kind: 'fallback-validator' as const,
      identity,
      early,
      problem: { identity, construct, detail: `ajv-said:${detail}`, fallback: 'DSH validateJsonSchemaValue' },
    })),
)

const snapshot = fc.record({
  verdicts: fc.array(verdict, { maxLength: 60 }),
  forgotten: fc.nat({ max: 5 }),
})

const SMALL = { rowBudget: 6_000, findingsPerRow: 3, text: 50 }

describe('contractsView', () => {
  it('counts every verdict by kind, however many rows the budget keeps', () => {
    fc.assert(
      fc.property(snapshot, (snap) => {
        const view = contractsView(snap, 'r', {}, SMALL)
        for (const kind of VERDICT_KINDS)
          expect(view.counts[kind]).toBe(snap.verdicts.filter((v) => v.kind === kind).length)
        expect(view.rows.length + view.omitted).toBe(snap.verdicts.length + snap.forgotten)
      }),
    )
  })

  it('lists withheld, then repaired, then fallback-validator, then accepted, so the budget cuts accepted tools first', () => {
    fc.assert(
      fc.property(snapshot, (snap) => {
        const view = contractsView(snap, 'r', {}, SMALL)
        const ranks = view.rows.map((row) => VERDICT_KINDS.indexOf(row.verdict))
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
        // The kept rows are a prefix of the full order: a cut row never precedes a kept one of a later kind.
        const full = contractsView(snap, 'r', {}, { ...SMALL, rowBudget: Number.MAX_SAFE_INTEGER })
        expect(full.rows.slice(0, view.rows.length)).toEqual(view.rows)
      }),
    )
  })

  it('stays within its byte budget and clips every string and finding list', () => {
    fc.assert(
      fc.property(snapshot, (snap) => {
        const view = contractsView(snap, 'r', {}, SMALL)
        expect(JSON.stringify(view.rows).length).toBeLessThanOrEqual(SMALL.rowBudget + 2)
        for (const row of view.rows) {
          expect(row.tool.length).toBeLessThanOrEqual(SMALL.text)
          expect(row.findings.length).toBeLessThanOrEqual(SMALL.findingsPerRow)
          for (const finding of row.findings) expect(finding.pointer.length).toBeLessThanOrEqual(SMALL.text)
        }
      }),
    )
  })

  it('counts the findings it leaves out, and sends no message, hint, construct text or ajv output', () => {
    fc.assert(
      fc.property(verdict, (v) => {
        const row = contractRow(v, new Map(), SMALL)
        const all = v.kind === 'withheld' ? v.error.details : v.kind === 'repaired' ? v.report.repaired : []
        expect(row.findings.length + row.moreFindings).toBe(all.length)
        const body = JSON.stringify(row)
        expect(body).not.toContain('ajv-said:')
        expect(body).not.toContain('said-in-message:')
        expect(body).not.toContain('said-in-construct:')
        expect(row.validator !== null).toBe(v.kind === 'fallback-validator')
        for (const [index, finding] of row.findings.entries()) expect(finding.rule).toBe(all[index]!.rule)
      }),
    )
  })

  it('names the npm package a plugin came from when the loader knows it, and only then', () => {
    fc.assert(
      fc.property(verdict, fc.string({ minLength: 1, maxLength: 30 }), (v, installed) => {
        const source = v.identity.source
        const packages = new Map(source === undefined ? [] : [[source, installed]])
        expect(contractRow(v, packages, SMALL).package).toBe(
          source === undefined ? null : installed.slice(0, SMALL.text),
        )
        expect(contractRow(v, new Map(), SMALL).package).toBeNull()
      }),
    )
  })

  it('marks a withheld tool repairable exactly when mode: repair would send it', () => {
    const id = { tool: 't', source: 'p' }
    const withheld = (rules: SchemaViolation['rule'][]): ToolVerdict => ({
      kind: 'withheld',
      identity: id,
      early: false,
      error: new JsonSchemaError(
        id,
        rules.map((rule) => ({ pointer: '', rule, message: 'm', hint: 'h' })),
      ),
    })
    expect(contractRow(withheld(['bare-property-table', 'required-in-property'])).repairable).toBe(true)
    expect(contractRow(withheld(['bare-property-table', 'enum-empty'])).repairable).toBe(false)
  })

  it('describes an uncompilable schema by kinds, never by the construct text (a pattern would be quoted)', () => {
    const id = { tool: 't', source: 'p' }
    const problem = {
      identity: id,
      pointer: '/properties/token/pattern',
      construct: 'the `pattern` "(?=sk-live-123)" at /properties/token/pattern uses lookahead',
      detail: 'd',
      fallback: 'ajv for every other keyword; a call whose value reaches this pattern is refused',
    }
    const row = contractRow({ kind: 'fallback-validator', identity: id, early: false, problem })
    expect(row.validator).toEqual({
      construct: 'pattern',
      pointer: '/properties/token/pattern',
      fallback: 'ajv-without-pattern',
    })
    expect(JSON.stringify(row)).not.toContain('sk-live-123')
  })

  it('keeps a withheld tool whole with the default limits: its package, pointer and rule as the overlay found them', () => {
    const details: SchemaViolation[] = [
      {
        pointer: '/properties/q/required',
        rule: 'required-in-property',
        message: '`required: true` inside a property is not JSON Schema',
        hint: 'remove it here and list "q" in the enclosing object\'s `required` array',
      },
    ]
    const id = { tool: 'acme_required_true', source: 'acme-dsh-tools' }
    const view = contractsView(
      {
        verdicts: [{ kind: 'withheld', identity: id, early: false, error: new JsonSchemaError(id, details) }],
        forgotten: 0,
      },
      'r',
      { packages: new Map([['acme-dsh-tools', '@acme/dsh-tools']]), lintCommand: 'lint-here .' },
      VIEW_LIMITS,
    )
    expect(view.lintCommand).toBe('lint-here .')
    expect(view.rows).toEqual([
      {
        tool: 'acme_required_true',
        source: 'acme-dsh-tools',
        package: '@acme/dsh-tools',
        verdict: 'withheld',
        early: false,
        findings: [{ pointer: '/properties/q/required', rule: 'required-in-property' }],
        moreFindings: 0,
        repairable: true,
        validator: null,
      },
    ])
  })
})
