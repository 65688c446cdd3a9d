import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type ChildRun, describeExit, profileDir } from '@dsh-harden/testkit/dsh-app'
import type { Observed, Row } from '../row.ts'
import { describeTurn, type Turn } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * The install route (issue 9, item 3) through DSH's own command, as a `guard`: adding the overlay with
 * `dsh plugin --profile <p> add @dsh-harden/overlay` (rc.8 apps/cli/src/plugin.ts `runPlugin`: pnpm in the profile
 * directory) keeps the profile booting. Stock: the same headless boot of a profile without any package of ours.
 * Hardened: the profile whose `.npmrc` routes the scope to the local registry our workspace was published to
 * (testkit `scopeNpmrc`, the route that works before publication), after the add, with the overlay row. Both legs
 * are judged by one predicate: dsh exits 0 and the agent request was made. (The add from the public registry fails
 * only because @dsh-harden/* is not published yet: that is no defect of DSH, so no leg is made of it.)
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

function boots(turn: Turn): boolean {
  return turn.run.exitCode === 0 && turn.agentRequests.length > 0
}

async function stockLeg(parts: AppRows): Promise<Observed> {
  const boot = await parts.turn({ profile: parts.stockProfile, patch: '' })
  return {
    outcome: boots(boot) ? 'boots' : 'boot-fails',
    works: boots(boot),
    detail: `a profile without our packages: ${describeTurn(boot)}`,
  }
}

async function hardenedLeg(parts: AppRows, add: ChildRun): Promise<Observed> {
  if (add.exitCode !== 0 || !installed(parts, parts.hardenedProfile)) {
    return {
      outcome: 'install-fails',
      works: false,
      detail: `dsh plugin add ${OVERLAY_PACKAGE}: ${describeExit(add)}: ${failureReason(add)}`,
    }
  }
  const boot = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay')),
  })
  return {
    outcome: boots(boot) ? 'installs-and-boots' : 'installs-boot-fails',
    works: boots(boot),
    detail: `dsh plugin add ${OVERLAY_PACKAGE}: exit 0 in ${Math.round(add.ms)} ms; boot with the overlay row: ${describeTurn(boot)}`,
  }
}

/**
 * Runs both legs. `hardenedAdd` is the `dsh plugin add` already run into the hardened profile (the other rows use
 * that profile), so the route is observed once.
 */
export async function installRow(parts: AppRows, hardenedAdd: ChildRun): Promise<Row> {
  return {
    id: 'app-install-route',
    group: GROUP,
    kind: 'guard',
    proves:
      '`dsh plugin --profile <p> add @dsh-harden/overlay` installs our package into a real profile and dsh still boots, with its row',
    source: 'issue 9 (items 3, 5); issue 14 (finding 9)',
    stock: await stockLeg(parts),
    hardened: await hardenedLeg(parts, hardenedAdd),
  }
}
