import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { packageOfSpecifier, packagesByPluginName } from '../src/web/index.ts'

/**
 * The panel names the npm package a plugin came from, read as DSH's plugin inventory reads it: each loader row's
 * module specifier (what `dsh plugin add` put in the profile) and the fiber it runs as.
 */
const dir = mkdtempSync(join(tmpdir(), 'dsh-harden-packages-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('packageOfSpecifier', () => {
  it('reads the package of a bare specifier, scoped or not, with or without a subpath', () => {
    expect(packageOfSpecifier('@acme/dsh-tools')).toBe('@acme/dsh-tools')
    expect(packageOfSpecifier('@dsh-harden/overlay/web')).toBe('@dsh-harden/overlay')
    expect(packageOfSpecifier('acme-tools/lib/plugin.js')).toBe('acme-tools')
    expect(packageOfSpecifier('@broken')).toBeUndefined()
    expect(packageOfSpecifier('cordis:group')).toBeUndefined()
    expect(packageOfSpecifier('./relative.js')).toBeUndefined()
  })

  it('reads the nearest package.json of a plugin named by its path', () => {
    mkdirSync(join(dir, 'my-plugin', 'lib'), { recursive: true })
    writeFileSync(join(dir, 'my-plugin', 'package.json'), JSON.stringify({ name: '@me/my-plugin' }))
    const file = join(dir, 'my-plugin', 'lib', 'index.js')
    expect(packageOfSpecifier(file)).toBe('@me/my-plugin')
    expect(packageOfSpecifier(pathToFileURL(file).href)).toBe('@me/my-plugin')
  })
})

describe('packagesByPluginName', () => {
  it('maps each plugin name to its row’s package, and leaves a name two packages share unknown', () => {
    const row = (specifier: unknown, plugin?: unknown) => ({
      options: { name: specifier },
      fiber: plugin === undefined ? undefined : { name: plugin },
    })
    const loader = {
      entries: () => [
        row('@acme/dsh-tools', 'acme-dsh-tools'),
        row('@acme/dsh-tools/extra', 'acme-dsh-tools'),
        row('one-pkg', 'shared-name'),
        row('other-pkg', 'shared-name'),
        row('not-started'),
        row(7, 'odd'),
      ],
    }
    expect([...packagesByPluginName(loader)]).toEqual([['acme-dsh-tools', '@acme/dsh-tools']])
    expect(packagesByPluginName(undefined).size).toBe(0)
  })
})
