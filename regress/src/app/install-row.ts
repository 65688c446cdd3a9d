import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type ChildRun, describeExit, pluginAdd, profileDir, writeProfile } from '@dsh-harden/testkit/dsh-app'
import type { Observed, Row } from '../row.ts'
import { describeTurn } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * The install route (issue 9, item 3) through DSH's own command: `dsh plugin --profile <p> add @dsh-harden/overlay`
 * (rc.8 apps/cli/src/plugin.ts `runPlugin`: pnpm in the profile directory), then a headless boot with the overlay
 * row. Stock: the profile as a user has it today, resolving `@dsh-harden/*` from their normal registry. Hardened: the
 * profile's `.npmrc` routes the scope to the local registry our workspace was published to (testkit
 * `scopeNpmrc`), the route that works before publication.
 */
export const OVERLAY_PACKAGE = '@dsh-harden/overlay'

/** The line of a child's output that says why it failed: pnpm's own error code line first (it prints it on stdout). */
export function failureReason(run: ChildRun): string {
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').map((line) => line.trim())
  return (
    lines.find((line) => /\bERR_[A-Z_]+/.test(line)) ??
    lines.findLast((line) => /404|error|failed/i.test(line)) ??
    describeExit(run)
  )
}

function installed(parts: AppRows, profile: string): boolean {
  return existsSync(
    join(profileDir(parts.home, profile), 'node_modules', '@dsh-harden', 'overlay', 'package.json'),
  )
}

async function leg(parts: AppRows, profile: string, add: ChildRun): Promise<Observed> {
  if (add.exitCode !== 0 || !installed(parts, profile)) {
    return {
      outcome: 'install-fails',
      works: false,
      detail: `dsh plugin add ${OVERLAY_PACKAGE}: ${describeExit(add)}: ${failureReason(add)}`,
    }
  }
  const boot = await parts.turn({ profile, patch: insertLayer(parts.ours('@dsh-harden/overlay')) })
  const works = boot.run.exitCode === 0 && boot.agentRequests.length > 0
  return {
    outcome: works ? 'installs-and-boots' : 'installs-boot-fails',
    works,
    detail: `dsh plugin add ${OVERLAY_PACKAGE}: exit 0 in ${Math.round(add.ms)} ms; boot with the overlay row: ${describeTurn(boot)}`,
  }
}

/**
 * Runs both legs. `hardenedAdd` is the `dsh plugin add` already run into the hardened profile (the other rows use
 * that profile), so the route is observed once.
 */
export async function installRow(parts: AppRows, hardenedAdd: ChildRun): Promise<Row> {
  const stockProfile = 'route-stock'
  writeProfile(parts.home, stockProfile)
  const stockAdd = await pluginAdd(parts.app, parts.home, stockProfile, [OVERLAY_PACKAGE])
  return {
    id: 'app-install-route',
    group: GROUP,
    kind: 'fix',
    proves:
      '`dsh plugin --profile <p> add @dsh-harden/overlay` installs our package into a real profile and dsh boots with its row',
    source: 'issue 9 (items 3, 5)',
    stock: await leg(parts, stockProfile, stockAdd),
    hardened: await leg(parts, parts.hardenedProfile, hardenedAdd),
  }
}
