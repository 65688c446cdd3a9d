import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type DshApp, type DshHome, profileDir } from '@dsh-harden/testkit/dsh-app'
import { runTurn, type Turn, type TurnSpec } from './app-session.ts'

/** The report section of every real-app row. */
export const GROUP = 'app'

/** Our packages a user adds to a profile for these rows, and the row each needs when it is not a bundle. */
export const OUR_ROWS = {
  '@dsh-harden/overlay': "    - id: dsh-harden\n      name: '@dsh-harden/overlay'\n",
  '@dsh-harden/tool-bash': "    - id: dsh-harden-tool-bash\n      name: '@dsh-harden/tool-bash'\n",
  '@dsh-harden/tool-fs': "    - id: dsh-harden-tool-fs\n      name: '@dsh-harden/tool-fs'\n",
  '@dsh-harden/mcp-client': "    - id: dsh-harden-mcp-intake\n      name: '@dsh-harden/mcp-client'\n",
} as const

export type OurPackage = keyof typeof OUR_ROWS

/** What every row module gets: the installed app, the run's DSH home, its two profiles, and a way to run a turn. */
export interface AppRows {
  readonly app: DshApp
  readonly home: DshHome
  /** A profile with no package of ours. */
  readonly stockProfile: string
  /** The profile our packages were added to with `dsh plugin add` from the local registry. */
  readonly hardenedProfile: string
  /**
   * The `insert` items the hardened profile's user layer needs for `packages`: a package `dsh plugin add` made a
   * bundle layer brings its own row (writing it again would duplicate its id); any other needs the row written.
   */
  ours(...packages: readonly OurPackage[]): string
  turn(spec: TurnSpec): Promise<Turn>
}

/** The hardened profile's bundle layers, as `dsh plugin add` reconciled them (`dsh.profile.bundles`). */
export function profileBundles(home: DshHome, profile: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(profileDir(home, profile), 'package.json'), 'utf8')) as {
      dsh?: { profile?: { bundles?: unknown } }
    }
    const bundles = manifest.dsh?.profile?.bundles
    return Array.isArray(bundles) ? bundles.filter((b): b is string => typeof b === 'string') : []
  } catch {
    return []
  }
}

/** A user layer from `insert` items: `- insert:` plus the items, or nothing when there are none. Pure. */
export function insertLayer(items: string): string {
  return items.trim() === '' ? '' : `- insert:\n${items}`
}

export function appRows(app: DshApp, home: DshHome, stockProfile: string, hardenedProfile: string): AppRows {
  return {
    app,
    home,
    stockProfile,
    hardenedProfile,
    ours: (...packages) => {
      const bundled = profileBundles(home, hardenedProfile)
      return packages
        .filter((name) => !bundled.includes(name))
        .map((name) => OUR_ROWS[name])
        .join('')
    },
    turn: (spec) => runTurn(app, home, spec),
  }
}
