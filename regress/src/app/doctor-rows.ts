import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type ChildRun,
  childEnv,
  createDshHome,
  type DshApp,
  type DshHome,
  profileDir,
  runBounded,
} from '@dsh-harden/testkit/dsh-app'
import { WORKSPACE_ROOT } from '@dsh-harden/testkit/workspace-packages'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, rejectionsOf, runTurn, type Turn } from './app-session.ts'
import { type AppRows, GROUP } from './group-parts.ts'
import { pluginRow, pluginSource } from './plugin-rows.ts'

/**
 * `dsh-harden doctor` on real installs (issue 15, item 2): each trap a user falls into on the way to a working DSH
 * 0.1.0-rc.8 is made for real, observed failing a headless turn (stock), named by doctor, and observed working after
 * the fix doctor printed was run verbatim with bash (hardened). Doctor runs as a user runs it from a clone:
 * `node packages/cli/bin/dsh-harden.js doctor`, with the user's PATH and DSH home.
 */
const CLI_BIN = join(WORKSPACE_ROOT, 'packages', 'cli', 'bin', 'dsh-harden.js')
/** A user's PATH without the workspace's Node 22 (pnpm puts it first for `pnpm regress`). */
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin'

interface Finding {
  readonly check: string
  readonly severity: 'ok' | 'warn' | 'error' | 'skip'
  readonly message: string
  readonly fix: string | null
  /** The fix when it is one shell line to paste, else null. */
  readonly command: string | null
}

interface Diagnosis {
  readonly run: ChildRun
  readonly findings: readonly Finding[]
}

/**
 * The environment of the user: their PATH (the dsh they installed first), their DSH home. HOME stays the caller's,
 * so the install and doctor's fixes share one pnpm store, as they do for a user.
 */
function userEnv(home: DshHome, binDir: string): Record<string, string> {
  return childEnv(process.env, { DSH_HOME: home.dir, PATH: `${binDir}:${SYSTEM_PATH}` })
}

async function diagnose(home: DshHome, binDir: string, profile: string): Promise<Diagnosis> {
  const run = await runBounded(process.execPath, [CLI_BIN, 'doctor', '--json', '--profile', profile], {
    cwd: home.root,
    env: userEnv(home, binDir),
    timeoutMs: 120_000,
    logFile: home.logFile,
    label: `dsh-harden doctor --profile ${profile}`,
  })
  try {
    return { run, findings: (JSON.parse(run.stdout) as { findings: Finding[] }).findings }
  } catch {
    return { run, findings: [] }
  }
}

const failing = (diagnosis: Diagnosis, check: string): Finding | undefined =>
  diagnosis.findings.find((finding) => finding.check === check && finding.severity === 'error')

/** Runs each fix's command exactly as doctor printed it; returns the runs (one line each for the evidence). */
async function applyFixes(home: DshHome, binDir: string, fixes: readonly Finding[]): Promise<string[]> {
  const applied: string[] = []
  for (const finding of fixes) {
    const run = await runBounded('bash', ['-euo', 'pipefail', '-c', finding.command ?? 'false'], {
      cwd: home.root,
      env: userEnv(home, binDir),
      timeoutMs: 300_000,
      logFile: home.logFile,
      label: `fix for ${finding.check}`,
    })
    applied.push(`\`${finding.command ?? finding.fix}\`: exit ${run.exitCode}`)
  }
  return applied
}

/** DSH's own profile initialization: `dsh --dump-config` writes the template (its user layer is `[]`). */
async function dshInit(home: DshHome, binDir: string, profile: string): Promise<void> {
  await runBounded(join(binDir, 'dsh'), ['--profile', profile, '--dump-config'], {
    cwd: home.workspace,
    env: userEnv(home, binDir),
    timeoutMs: 60_000,
    logFile: home.logFile,
    label: `dsh --profile ${profile} --dump-config`,
  })
}

function turnWorks(turn: Turn): boolean {
  return turn.run.exitCode === 0 && turn.agentRequests.length > 0 && rejectionsOf(turn).length === 0
}

/** The turn as evidence, with the line of stderr that says why it failed. */
function turnDetail(turn: Turn): string {
  if (turnWorks(turn)) return describeTurn(turn)
  // The thrown error's own line (`Error: dsh: …`, `TypeError: …`), not the source line Node quotes above it.
  const why = turn.run.stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^[A-Za-z]*(Error|Exception)\b[^:]*:/.test(line))
  return `${describeTurn(turn)}${why === undefined ? '' : `: ${why}`}`
}

function named(diagnosis: Diagnosis, check: string, what: string): Check {
  const finding = failing(diagnosis, check)
  return {
    what: `doctor names ${what}: ${finding === undefined ? '(not named)' : `FAIL ${check}: ${finding.message}`}`,
    ok: finding !== undefined,
  }
}

/** One trap: stock turn, doctor, the fixes it printed for `checks`, hardened turn. */
async function trapRow(spec: {
  readonly id: string
  readonly proves: string
  readonly app: DshApp
  readonly home: DshHome
  readonly profile: string
  readonly checks: readonly { readonly check: string; readonly what: string }[]
  readonly patch?: string
  readonly source?: string
}): Promise<Row> {
  const env = { PATH: `${spec.app.binDir}:${SYSTEM_PATH}` }
  const turn = () => runTurn(spec.app, spec.home, { profile: spec.profile, patch: undefined, env })
  const before = await turn()
  const diagnosis = await diagnose(spec.home, spec.app.binDir, spec.profile)
  // Every failing finding of the row's checks (two disabled overlay rows are two findings, two fixes).
  const fixes = diagnosis.findings.filter(
    (finding) => finding.severity === 'error' && spec.checks.some(({ check }) => check === finding.check),
  )
  const applied = await applyFixes(spec.home, spec.app.binDir, fixes)
  const after = await turn()
  const rediagnosis = await diagnose(spec.home, spec.app.binDir, spec.profile)
  const stock: Observed = {
    outcome: turnWorks(before) ? 'works' : 'turn-fails',
    works: turnWorks(before),
    detail: turnDetail(before),
  }
  const hardened: Observed = {
    outcome: turnWorks(after) ? 'works-after-doctor-fix' : 'still-fails-after-doctor-fix',
    works: turnWorks(after) && spec.checks.every(({ check }) => failing(diagnosis, check) !== undefined),
    detail: `${applied.join('; ') || 'doctor printed no fix'}; then ${turnDetail(after)}`,
  }
  const checks: Check[] = spec.checks.map(({ check, what }) => named(diagnosis, check, what))
  checks.push({
    what: `after the fixes doctor no longer fails ${spec.checks.map(({ check }) => check).join(', ')}`,
    ok: spec.checks.every(({ check }) => failing(rediagnosis, check) === undefined),
  })
  return {
    id: spec.id,
    group: GROUP,
    kind: 'fix',
    proves: spec.proves,
    source: spec.source ?? 'issue 15 (item 2)',
    stock,
    hardened,
    checks,
  }
}

/** `pnpm add @deepseek-ai/dsh@0.1.0-rc.8` in an empty folder with the system's Node: what a user tries first. */
async function naiveInstall(root: string, home: DshHome): Promise<DshApp> {
  const dir = join(root, 'naive-dsh')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
  const started = performance.now()
  await runBounded('pnpm', ['add', '@deepseek-ai/dsh@0.1.0-rc.8', '--reporter=append-only'], {
    cwd: dir,
    env: childEnv(process.env, { PATH: SYSTEM_PATH }),
    timeoutMs: 300_000,
    logFile: home.logFile,
    label: 'pnpm add @deepseek-ai/dsh@0.1.0-rc.8 (no override, no Node 22)',
  })
  return {
    dir,
    binDir: join(dir, 'node_modules', '.bin'),
    installMs: performance.now() - started,
    fromCache: false,
  }
}

/** The `✕ missing peer <name>@<range>` lines of a `dsh plugin add` (pnpm's peer report). */
function missingPeers(add: ChildRun): string[] {
  return [...`${add.stdout}\n${add.stderr}`.matchAll(/missing peer (@?[^@\s]+)@/g)].map((match) => match[1]!)
}

/**
 * The healthy state: the hardened profile as `dsh plugin add` left it. A turn works, doctor exits 0, and every peer
 * `dsh plugin add` reported missing is one doctor shows coming from DSH's own install.
 */
async function healthyRow(parts: AppRows, overlayAdd: ChildRun): Promise<Row> {
  const turn = await parts.turn({ profile: parts.hardenedProfile, patch: '' })
  const diagnosis = await diagnose(parts.home, parts.app.binDir, parts.hardenedProfile)
  const errors = diagnosis.findings.filter((finding) => finding.severity === 'error')
  const packages = diagnosis.findings.filter((finding) => finding.check === 'package').map((f) => f.message)
  const peers = [...new Set(missingPeers(overlayAdd))]
  const unexplained = peers.filter((peer) => !packages.some((line) => line.includes(`${peer} `)))
  return {
    id: 'app-doctor-healthy',
    group: GROUP,
    kind: 'guard',
    proves:
      'on a profile our overlay was added to with `dsh plugin add`, doctor finds nothing to fix, and says why the missing-peer lines of the add do not matter',
    source: 'issue 15 (items 2, 3)',
    stock: {
      outcome: turnWorks(turn) ? 'works' : 'turn-fails',
      works: turnWorks(turn),
      detail: describeTurn(turn),
    },
    hardened: {
      outcome: diagnosis.run.exitCode === 0 ? 'doctor-ok' : 'doctor-fails',
      works: diagnosis.run.exitCode === 0 && errors.length === 0,
      detail:
        `doctor exit ${diagnosis.run.exitCode}; ${diagnosis.findings.length} findings, ${errors.length} errors` +
        (errors.length === 0 ? '' : `: ${errors.map((f) => `${f.check}: ${f.message}`).join(' | ')}`),
    },
    checks: [
      {
        what: `every peer \`dsh plugin add\` reported missing (${peers.join(', ') || 'none'}) is shown by doctor as provided by DSH's install${unexplained.length === 0 ? '' : `; not explained: ${unexplained.join(', ')}`}`,
        ok: unexplained.length === 0,
      },
    ],
  }
}

/**
 * The overlay's rows turned off in the profile's own layer: the acme plugin's broken tools reach the model and the
 * endpoint refuses the turn; doctor names each row (the Web panel's row too), and its fixes (a later
 * `disabled: false` each) turn them on again.
 */
async function overlayRowsRow(parts: AppRows): Promise<Row> {
  const file = join(parts.home.root, 'doctor-acme.mjs')
  writeFileSync(file, pluginSource(0))
  const profile = parts.hardenedProfile
  const off = ['dsh-harden', 'dsh-harden-early', 'dsh-harden-web'].map(
    (id) => `- id: ${id}\n  disabled: true\n`,
  )
  const layer = `- insert:\n${pluginRow(file)}${off.join('')}`
  writeFileSync(
    join(profileDir(parts.home, profile), 'cordis.patch.yml'),
    `- id: hmr\n  disabled: false\n${layer}`,
  )
  return trapRow({
    id: 'app-doctor-overlay-rows',
    proves:
      'doctor names a profile whose dsh-harden rows (the Web panel row too) are disabled, and its fixes make the overlay run again',
    app: parts.app,
    home: parts.home,
    profile,
    checks: [{ check: 'row', what: 'the disabled overlay rows' }],
    source: 'issue 15 (item 2), issue 25 (item 2)',
  })
}

/**
 * The doctor rows. `overlayAdd` is the `dsh plugin add @dsh-harden/overlay` the group ran into the hardened profile;
 * its output carries the missing-peer lines the healthy row explains.
 */
export async function doctorRows(parts: AppRows, overlayAdd: ChildRun): Promise<Row[]> {
  const rows: Row[] = [await healthyRow(parts, overlayAdd)]
  const install = createDshHome({ logFile: parts.home.logFile, prefix: 'dsh-harden-doctor-' })
  try {
    const naive = await naiveInstall(install.root, install)
    await dshInit(install, naive.binDir, 'headless')
    // The hmr row is written so that the install traps are what stops the turn.
    writeFileSync(join(profileDir(install, 'headless'), 'cordis.patch.yml'), '- id: hmr\n  disabled: false\n')
    rows.push(
      await trapRow({
        id: 'app-doctor-install',
        proves:
          'doctor names the install traps of `pnpm add @deepseek-ai/dsh@0.1.0-rc.8` (hmr 1.0.19, the system Node), and its fixes make dsh run a turn',
        app: naive,
        home: install,
        profile: 'headless',
        checks: [
          { check: 'node', what: 'the Node that runs dsh' },
          { check: 'hmr-pin', what: 'the unpinned hmr' },
        ],
      }),
    )
  } finally {
    install.close()
  }
  for (const trap of PROFILE_TRAPS) {
    const home = createDshHome({ logFile: parts.home.logFile, prefix: trap.prefix ?? 'dsh-harden-doctor-' })
    try {
      await dshInit(home, parts.app.binDir, 'headless')
      trap.make(join(profileDir(home, 'headless'), 'cordis.patch.yml'))
      rows.push(await trapRow({ ...trap, app: parts.app, home, profile: 'headless' }))
    } finally {
      home.close()
    }
  }
  rows.push(await overlayRowsRow(parts))
  return rows
}

/** Traps of a profile DSH created, each made the way a user makes it; `prefix` names the home's temp folder. */
const PROFILE_TRAPS: readonly {
  readonly id: string
  readonly proves: string
  readonly checks: readonly { readonly check: string; readonly what: string }[]
  readonly make: (file: string) => void
  readonly prefix?: string
  readonly source?: string
}[] = [
  {
    id: 'app-doctor-hmr-row',
    proves:
      'doctor names a profile DSH created without the hmr row, and its fix makes the profile run a turn',
    checks: [{ check: 'hmr-row', what: 'the missing hmr row' }],
    make: (_file: string) => {},
  },
  {
    id: 'app-doctor-patch-yaml',
    proves:
      'doctor names the YAMLException of a row appended below the template `[]`, and its fix makes the profile run a turn',
    checks: [{ check: 'patch-file', what: 'the YAML error and its line' }],
    // What a user does with the docs' row: append it to the file DSH wrote.
    make: (file: string) => appendFileSync(file, '- id: hmr\n  disabled: false\n'),
  },
  {
    id: 'app-doctor-quoted-home',
    proves:
      "doctor's fix, pasted into bash from a home whose path has a space and a single quote, writes the hmr row into that home's profile (not a stray file), and the profile runs a turn",
    checks: [{ check: 'hmr-row', what: 'the missing hmr row, in a home named like `it’s a home`' }],
    make: (_file: string) => {},
    prefix: "dsh-harden-doctor it's a home ",
    source: 'issue 25 (item 2)',
  },
]
