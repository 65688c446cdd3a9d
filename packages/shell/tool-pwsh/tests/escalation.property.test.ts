import { isStrictlyWider, SANDBOX_MODES, type SandboxMode } from '@dsh-harden/escalation'
import { describe, expect, it } from 'vitest'
import { type ApprovalSetting, composePwsh } from './compose.ts'

/**
 * DSH's real `pwsh` tool (rc.8 @deepseek-ai/dsh-tool-pwsh) up to the executor: PowerShell is not installable on this
 * host (no Debian package; the npm `pwsh` package downloads it from outside the registries), so the executor is a
 * recorder. Schema advertisement and DSH's escalation validation and approval run for real.
 */
const RANK: Record<SandboxMode, number> = { 'read-only': 0, 'workspace-write': 1, 'danger-full-access': 2 }
const REQUESTED: readonly unknown[] = [undefined, null, '', ...SANDBOX_MODES, 'bogus']
const JUSTIFICATIONS: readonly unknown[] = [undefined, null, '', ' ', 'need to write the file']
const APPROVALS: readonly ApprovalSetting[] = ['allow', 'reject', 'never']

function args(requested: unknown, justification: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { command: 'Set-Content f.txt hi', description: 'Write f.txt' }
  if (requested !== undefined) out.sandbox_permissions = requested
  if (justification !== undefined) out.justification = justification
  return out
}

describe('DSH pwsh: every (effective mode, requested, justification, approval policy)', () => {
  for (const effective of SANDBOX_MODES) {
    for (const approval of APPROVALS) {
      it(`${effective}, approval ${approval}`, async () => {
        const pwsh = composePwsh(effective, approval)
        for (const requested of REQUESTED) {
          for (const justification of JUSTIFICATIONS) {
            const raw = args(requested, justification)
            const stock = await pwsh.runStock(raw)
            const hardened = await pwsh.runHardened(raw)
            if (stock.error === undefined) expect(hardened).toEqual(stock)
            if (hardened.ranUnder !== undefined && RANK[hardened.ranUnder] > RANK[effective]) {
              expect(hardened.ranUnder).toBe(requested)
              expect(hardened.userAsked && approval === 'allow').toBe(true)
            }
            const text = typeof justification === 'string' && justification.trim() !== ''
            if (isStrictlyWider(requested, effective) && text) expect(hardened.approvals).toHaveLength(1)
            if (isStrictlyWider(requested, effective) && !text)
              expect(hardened.error).toMatch(/send null for both/)
          }
        }
      })
    }
  }
})

describe('DSH pwsh: the #1149 payloads', () => {
  it('the materialized payload under workspace-write: stock fails, hardened reaches the executor unprompted', async () => {
    const pwsh = composePwsh('workspace-write', 'allow')
    const raw = {
      command: 'Get-ChildItem',
      description: 'List files',
      sandbox_permissions: 'workspace-write',
      justification: '',
    }
    expect((await pwsh.runStock(raw)).error).toBe('invalid justification: expected a non-empty sentence')
    expect(await pwsh.runHardened(raw)).toEqual({
      error: undefined,
      ranUnder: 'workspace-write',
      approvals: [],
      userAsked: false,
    })
  })

  it('advertises both fields as nullable on the real pwsh definition', () => {
    const pwsh = composePwsh('read-only', 'allow')
    expect(pwsh.hardened.parameters).toMatchObject({
      properties: {
        sandbox_permissions: {
          type: ['string', 'null'],
          enum: ['workspace-write', 'danger-full-access', null],
        },
        justification: { type: ['string', 'null'] },
      },
    })
  })
})
