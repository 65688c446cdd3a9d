import { SANDBOX_MODES } from '@dsh-harden/escalation'
import {
  APPROVALS,
  checkEveryRequest,
  checkRandomValues,
  type EscalationMatrix,
} from '@dsh-harden/escalation/testing'
import { describe, expect, it } from 'vitest'
import { composeFs } from './compose.ts'

const TOOLS = {
  write: { file_path: 'g.txt', content: 'x' },
  edit: { file_path: 'g.txt', old_string: 'a', new_string: 'x' },
} as const

function matrix(tool: keyof typeof TOOLS): EscalationMatrix {
  return {
    base: TOOLS[tool],
    justifications: [undefined, null, '', '\n', 'need to write g.txt'],
    subject: 'operation',
    compose(effective, approval) {
      const fs = composeFs(effective, approval)
      return async (raw) => ({
        stock: await fs.run(fs.stockOf(tool), raw),
        hardened: await fs.run(fs.hardenedOf(tool), raw),
      })
    },
  }
}

for (const tool of ['write', 'edit'] as const) {
  describe(`DSH ${tool}: every (effective mode, requested, justification, approval policy)`, () => {
    for (const effective of SANDBOX_MODES) {
      for (const approval of APPROVALS) {
        it(`${effective}, approval ${approval}`, () => checkEveryRequest(matrix(tool), effective, approval))
      }
    }
  })
}

describe('DSH write: random values', () => {
  it('keeps every invariant for arbitrary strings and JSON in both fields', () =>
    checkRandomValues(matrix('write')))
})

describe('DSH fs: the tools it changes', () => {
  it('leaves read alone and widens only the two fields on write and edit', () => {
    const fs = composeFs('read-only', 'allow')
    expect(fs.hardenedOf('read')).toBe(fs.stockOf('read'))
    for (const tool of ['write', 'edit']) {
      expect(fs.hardenedOf(tool).parameters).toMatchObject({
        properties: {
          sandbox_permissions: {
            type: ['string', 'null'],
            enum: ['workspace-write', 'danger-full-access', null],
          },
          justification: { type: ['string', 'null'] },
        },
      })
    }
  })
})
