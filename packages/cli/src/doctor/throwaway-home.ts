import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * What `dsh --profile <p> --dump-config` writes (rc.8 apps/cli/src/profile-boot.ts `prepareProfile`): it heals
 * `$DSH_HOME/profiles/node_modules` (dsh-app-boot `healProfilesModuleFallback`, about 450 links on a fresh home),
 * rewrites the profile's `cordis.yml` every time, may rewrite its `package.json` (`normalizeShippedProfile`) and
 * creates a missing `cordis.patch.yml` or `pnpm-workspace.yaml`. Doctor must leave the user's home as it was, so the
 * composition runs against a copy.
 */
export const DUMP_WRITES = "the links in profiles/node_modules and the profile's cordis.yml"

/** A temporary DSH home holding one profile; `dispose()` removes it. */
export interface ThrowawayHome {
  readonly dir: string
  readonly profileDir: string
  dispose(): void
}

/**
 * A DSH home DSH may write to, for one profile of `home`: the profile's files copied (DSH writes files, so a link
 * would write through to the user's), its folders (`node_modules`) linked (DSH only reads them), and the home-level
 * `cordis.patch.yml` copied. `profiles/node_modules` is left for DSH to make, as it would in the user's home.
 */
export function throwawayHome(home: string, profile: string): ThrowawayHome {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-harden-doctor-home-'))
  const profileDir = join(dir, 'profiles', profile)
  try {
    mkdirSync(profileDir, { recursive: true })
    const source = join(home, 'profiles', profile)
    for (const name of readdirSync(source)) copyEntry(join(source, name), join(profileDir, name))
    const homePatch = join(home, 'cordis.patch.yml')
    if (existsSync(homePatch)) copyFileSync(homePatch, join(dir, 'cordis.patch.yml'))
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return { dir, profileDir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A file (or a link to one) is copied, a folder (or a link to one) is linked; a dangling link is left out. */
function copyEntry(from: string, to: string): void {
  const target = existsSync(from) ? statSync(from) : undefined
  if (target === undefined) return
  if (target.isDirectory()) symlinkSync(from, to, 'dir')
  else if (target.isFile()) copyFileSync(from, to)
}
