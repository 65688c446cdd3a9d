import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { WORKSPACE_ROOT } from '@dsh-harden/testkit/workspace-packages'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { OUR_ROWS } from '../src/doctor/rows.ts'

/** Each package of ours with a bundle layer, by folder. */
const BUNDLES = [
  'packages/core/overlay',
  'packages/shell/tool-bash',
  'packages/shell/tool-pwsh',
  'packages/fs/tool-fs',
  'packages/mcp/mcp-client',
  'packages/mcp/lazy-mcp',
]

interface InsertedRow {
  readonly id: string
  readonly name: string
  readonly disabled?: boolean
}

/** The rows a package's cordis.patch.yml inserts, in order. */
function rowsOf(folder: string): { packageName: string; rows: InsertedRow[] } {
  const manifest = JSON.parse(readFileSync(join(WORKSPACE_ROOT, folder, 'package.json'), 'utf8')) as {
    name: string
    dsh: { bundle: { patch: string } }
  }
  const patch = yaml.load(readFileSync(join(WORKSPACE_ROOT, folder, manifest.dsh.bundle.patch), 'utf8')) as {
    insert?: InsertedRow[]
  }[]
  return { packageName: manifest.name, rows: patch.flatMap((entry) => entry.insert ?? []) }
}

describe('doctor knows every row of ours', () => {
  it('its table is the rows each package’s bundle layer inserts (id, module, shipped off)', () => {
    const shipped = BUNDLES.flatMap((folder) => {
      const { packageName, rows } = rowsOf(folder)
      return rows.map((row) => ({
        id: row.id,
        packageName,
        entry: row.name,
        shipsOff: row.disabled === true,
      }))
    })
    const known = OUR_ROWS.map(({ id, packageName, entry, shipsOff }) => ({
      id,
      packageName,
      entry,
      shipsOff: shipsOff === true,
    }))
    expect(known).toEqual(shipped)
  })
})
