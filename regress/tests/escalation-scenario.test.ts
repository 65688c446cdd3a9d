import { beforeAll, describe, expect, it } from 'vitest'
import { ESCALATION_CASES, pwshInstalled, run } from '../src/escalation-rows.ts'
import { landlockAvailable, runEscalationScenario } from '../src/escalation-scenario.ts'
import { type Row, rowPasses, verdictOf } from '../src/row.ts'
import { testContext } from './context.ts'

/**
 * #1149 through the real agent loop, DSH's real bash/write/pwsh tools, the real sandbox stack and the real approval
 * service. Confinement is probed first: where the kernel cannot confine, DSH must fail closed (SANDBOX_UNAVAILABLE)
 * rather than run unconfined, and that is what is asserted instead.
 */
let confined = false
let rows: Row[] = []

beforeAll(async () => {
  confined = await landlockAvailable()
  if (confined) rows = await run(testContext())
}, 600_000)

const row = (id: string) => {
  const found = rows.find((r) => r.id === id)
  if (found === undefined) throw new Error(`no row ${id}`)
  return found
}

describe('#1149 rows on the real sandbox', () => {
  it('confinement is available here, or DSH fails closed', async () => {
    if (confined) return
    const run = await runEscalationScenario({
      hardened: true,
      mode: 'read-only',
      approval: 'ask',
      steps: [[{ tool: 'bash', arguments: { command: 'ls', description: 'List files' } }]],
    })
    expect(run.calls[0]?.result).toMatch(
      /no sandbox backend is usable on this host; refusing to run the command unconfined/,
    )
  })

  for (const testCase of ESCALATION_CASES) {
    it(`${testCase.id} passes as a ${testCase.kind} row (${testCase.source})`, () => {
      if (!confined) return
      if (testCase.run.pwsh === true && !pwshInstalled()) {
        expect(rows.some((r) => r.id === testCase.id)).toBe(false)
        return
      }
      const found = row(testCase.id)
      expect(found.kind).toBe(testCase.kind)
      expect(rowPasses(found), JSON.stringify(found)).toBe(true)
    })
  }

  it('the edit rows (#1149 edit) are fixed: stock edit refuses, hardened edits the file without a prompt', () => {
    if (!confined) return
    expect(verdictOf(row('edit-materialized-ww-1149'))).toBe('fixed')
    expect(verdictOf(row('edit-null-fields-1149'))).toBe('fixed')
    expect(row('edit-null-fields-1149').stock.detail).toContain('"sandbox_permissions" must be a string')
  })

  it("the materialized payload: stock shows DSH's justification error, hardened runs without a prompt", () => {
    if (!confined) return
    expect(row('bash-materialized-ww-1149').stock).toMatchObject({ outcome: 'call-fails', works: false })
    expect(row('bash-materialized-ww-1149').stock.detail).toMatch(
      /^0 approval prompts\nbash .* → error: Error: invalid justification: expected a non-empty sentence\n/,
    )
    expect(row('bash-materialized-ww-1149').hardened.outcome).toBe('call-works')
    expect(row('bash-materialized-dfa-1149').hardened.outcome).toBe('call-works')
  })

  it('a genuine wider request still asks, and is still refused under never', () => {
    if (!confined) return
    expect(row('bash-wider-still-asks').hardened.outcome).toBe('call-asks-approval')
    expect(row('bash-wider-never-refused').hardened.outcome).toBe('call-refused')
  })
})

describe('the hardened wire schema', () => {
  it('advertises both fields as nullable, optional, and is accepted by the DeepSeek endpoint', async () => {
    const run = await runEscalationScenario({
      hardened: true,
      mode: 'danger-full-access',
      approval: 'ask',
      steps: [[{ tool: 'bash', arguments: { command: 'true', description: 'Nothing' } }]],
    })
    expect(run.errors).toEqual([])
    for (const tool of ['bash', 'write', 'edit']) {
      const parameters = run.wireParameters[tool] as {
        properties: Record<string, unknown>
        required: string[]
      }
      expect(parameters.properties.sandbox_permissions).toMatchObject({ type: ['string', 'null'] })
      expect(parameters.properties.justification).toMatchObject({ type: ['string', 'null'] })
      expect(parameters.required).not.toContain('sandbox_permissions')
    }
  }, 600_000)
})

describe('denial-bound escalation on the real sandbox', () => {
  it('an expired token is refused: the retry runs in its current mode and nobody is asked', async () => {
    if (!confined) return
    const command = 'echo hi > f.txt && cat f.txt'
    const run = await runEscalationScenario({
      hardened: true,
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true, tokenTtlMs: 1 },
      steps: [
        [{ tool: 'bash', arguments: { command, description: 'Write f.txt' } }],
        [
          {
            tool: 'bash',
            arguments: (seen) => ({
              command,
              description: 'Write f.txt',
              sandbox_permissions: 'workspace-write',
              justification: 'need to write f.txt',
              escalation_token: /escalation_token (esc_\S+)/.exec(seen.join('\n'))?.[1] ?? null,
            }),
          },
        ],
      ],
    })
    expect(run.calls[0]?.result).toMatch(/escalation_token esc_/)
    expect(run.calls[1]?.argumentsSent).toMatch(/"escalation_token":"esc_/)
    expect(run.userAsked).toEqual([])
    expect(run.files['f.txt']).toBeUndefined()
    expect(run.calls[1]?.result).toContain('was ignored: a wider mode is only honoured as the retry')
  }, 600_000)

  it('a parallel pair carrying one token, its reuse and another command: exactly one reaches approval', () => {
    if (!confined) return
    expect(row('denial-bound-token-misuse').hardened.detail).toMatch(/^1 approval prompt\n/)
  })
})
