import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { group } from '../src/group.ts'
import type { Row } from '../src/row.ts'
import { runGroups } from '../src/run-groups.ts'

const dir = mkdtempSync(join(tmpdir(), 'regress-run-groups-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const leg = { outcome: 'works', works: true, detail: '' }
const guardRow = (id: string, groupName: string): Row => ({
  id,
  group: groupName,
  kind: 'guard',
  proves: 'p',
  source: 's',
  stock: leg,
  hardened: leg,
})

describe('runGroups', () => {
  it('isolates a group that fails to load or throws, logs its stack, and keeps the other groups’ rows', async () => {
    const log = join(dir, 'a.log')
    const result = await runGroups(
      [
        group('broken-import', 't', () => Promise.reject(new SyntaxError('bad module'))),
        group('throws', 't', async () => ({
          run: async () => {
            throw new Error('group failed')
          },
        })),
        group('fine', 't', async () => ({
          run: async (context) => {
            context.note('a fact')
            return [guardRow('x', 'fine')]
          },
        })),
      ],
      log,
    )
    expect(result.rows.map((row) => row.id)).toEqual(['x'])
    expect(result.notes).toEqual(['a fact'])
    expect(result.failures).toEqual([
      { group: 'broken-import', error: 'SyntaxError: bad module' },
      { group: 'throws', error: 'Error: group failed' },
    ])
    expect(readFileSync(log, 'utf8')).toMatch(/\[throws\] Error: group failed\n\s+at /)
  })

  it('refuses a row filed under another group, naming it and the fix', async () => {
    const result = await runGroups(
      [group('mine', 't', async () => ({ run: async () => [guardRow('y', 'theirs')] }))],
      join(dir, 'b.log'),
    )
    expect(result.rows).toEqual([])
    expect(result.failures[0]?.error).toBe(
      'rows filed under another group: y (group "theirs"); set group: "mine"',
    )
  })
})
