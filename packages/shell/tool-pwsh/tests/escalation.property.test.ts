import { SANDBOX_MODES } from '@dsh-harden/escalation'
import { APPROVALS, checkEveryRequest, type EscalationMatrix } from '@dsh-harden/escalation/testing'
import { describe, expect, it } from 'vitest'
import { composePwsh } from './compose.ts'

/**
 * DSH's real `pwsh` tool (rc.8 @deepseek-ai/dsh-tool-pwsh) up to the executor: PowerShell is not installable on this
 * host (no Debian package; the npm `pwsh` package downloads it from outside the registries), so the executor is a
 * recorder. Schema advertisement and DSH's escalation validation and approval run for real.
 */
const PWSH: EscalationMatrix = {
  base: { command: 'Set-Content f.txt hi', description: 'Write f.txt' },
  justifications: [undefined, null, '', ' ', 'need to write the file'],
  subject: 'command',
  compose(effective, approval) {
    const pwsh = composePwsh(effective, approval)
    return async (raw) => ({ stock: await pwsh.runStock(raw), hardened: await pwsh.runHardened(raw) })
  },
}

describe('DSH pwsh: every (effective mode, requested, justification, approval policy)', () => {
  for (const effective of SANDBOX_MODES) {
    for (const approval of APPROVALS) {
      it(`${effective}, approval ${approval}`, () => checkEveryRequest(PWSH, effective, approval))
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
