import { JsonSchemaError, type SchemaViolation } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ToolVerdict } from '../src/verdicts.ts'
import { contractRow, contractsView, VERDICT_KINDS, VIEW_LIMITS } from '../src/web/index.ts'

/** The panel's projection of the verdict ledger: every verdict counted, important rows first, bounded, no schema. */
const violation: fc.Arbitrary<SchemaViolation> = fc.record({
  pointer: fc.oneof(
    fc.constant(''),
    fc.string().map((s) => `/properties/${s}`),
  ),
  rule: fc.constantFrom('bare-property-table', 'required-in-property', 'root-type-missing'),
  message: fc.string({ maxLength: 900 }),
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
    .record({ identity, early: fc.boolean(), construct: fc.string(), detail: fc.string({ minLength: 1 }) })
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
        const view = contractsView(snap, 'r', SMALL)
        for (const kind of VERDICT_KINDS)
          expect(view.counts[kind]).toBe(snap.verdicts.filter((v) => v.kind === kind).length)
        expect(view.rows.length + view.omitted).toBe(snap.verdicts.length + snap.forgotten)
      }),
    )
  })

  it('lists withheld, then repaired, then fallback-validator, then accepted, so the budget cuts accepted tools first', () => {
    fc.assert(
      fc.property(snapshot, (snap) => {
        const view = contractsView(snap, 'r', SMALL)
        const ranks = view.rows.map((row) => VERDICT_KINDS.indexOf(row.verdict))
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
        // The kept rows are a prefix of the full order: a cut row never precedes a kept one of a later kind.
        const full = contractsView(snap, 'r', { ...SMALL, rowBudget: Number.MAX_SAFE_INTEGER })
        expect(full.rows.slice(0, view.rows.length)).toEqual(view.rows)
      }),
    )
  })

  it('stays within its byte budget and clips every string and finding list', () => {
    fc.assert(
      fc.property(snapshot, (snap) => {
        const view = contractsView(snap, 'r', SMALL)
        expect(JSON.stringify(view.rows).length).toBeLessThanOrEqual(SMALL.rowBudget + 2)
        for (const row of view.rows) {
          expect(row.tool.length).toBeLessThanOrEqual(SMALL.text)
          expect(row.findings.length).toBeLessThanOrEqual(SMALL.findingsPerRow)
          for (const finding of row.findings)
            for (const text of [finding.pointer, finding.message, finding.hint])
              expect(text.length).toBeLessThanOrEqual(SMALL.text)
        }
      }),
    )
  })

  it('counts the findings it leaves out, and never sends what ajv said', () => {
    fc.assert(
      fc.property(verdict, (v) => {
        const row = contractRow(v, SMALL)
        const all = v.kind === 'withheld' ? v.error.details : v.kind === 'repaired' ? v.report.repaired : []
        expect(row.findings.length + row.moreFindings).toBe(all.length)
        expect(JSON.stringify(row)).not.toContain('ajv-said:')
        expect(row.validator !== null).toBe(v.kind === 'fallback-validator')
      }),
    )
  })

  it('keeps a withheld tool whole with the default limits: its pointer, reason and fix as the overlay found them', () => {
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
      VIEW_LIMITS,
    )
    expect(view.rows).toEqual([
      {
        tool: 'acme_required_true',
        source: 'acme-dsh-tools',
        verdict: 'withheld',
        early: false,
        findings: [{ pointer: details[0]!.pointer, message: details[0]!.message, hint: details[0]!.hint }],
        moreFindings: 0,
        validator: null,
      },
    ])
  })
})
