import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Composed, ComposedRow } from './composed.ts'
import { type Finding, failure, ok, warning } from './finding.ts'
import { readJson, resolvePackage } from './locate.ts'
import { type ShellCommand, shell, shellWord } from './shell.ts'
import { addRowsFix, type UserLayer } from './user-layer.ts'

export const OVERLAY = '@dsh-harden/overlay'

/** A row one of our packages' bundle layer inserts (its `cordis.patch.yml`), and the module DSH imports for it. */
export interface OurRow {
  readonly id: string
  readonly packageName: string
  /** The row's `name`: the module specifier DSH's loader imports from the profile folder. */
  readonly entry: string
  readonly does: string
  /** The bundle ships the row off (lazy-mcp has nothing to serve until the user names servers). */
  readonly shipsOff?: true
}

/** Every row of ours, package by package, as each package's cordis.patch.yml inserts it (a test keeps them equal). */
export const OUR_ROWS: readonly OurRow[] = [
  {
    id: 'dsh-harden-early',
    packageName: OVERLAY,
    entry: `${OVERLAY}/early`,
    does: 'names the plugin of tools registered before the overlay',
  },
  { id: 'dsh-harden', packageName: OVERLAY, entry: OVERLAY, does: 'checks every tool registration' },
  {
    id: 'dsh-harden-web',
    packageName: OVERLAY,
    entry: `${OVERLAY}/web`,
    does: "serves the Web UI's Tool contracts panel",
  },
  {
    id: 'dsh-harden-tool-bash',
    packageName: '@dsh-harden/tool-bash',
    entry: '@dsh-harden/tool-bash',
    does: "removes escalation placeholders from DSH's bash calls",
  },
  {
    id: 'dsh-harden-tool-pwsh',
    packageName: '@dsh-harden/tool-pwsh',
    entry: '@dsh-harden/tool-pwsh',
    does: "removes escalation placeholders from DSH's pwsh calls",
  },
  {
    id: 'dsh-harden-tool-fs',
    packageName: '@dsh-harden/tool-fs',
    entry: '@dsh-harden/tool-fs',
    does: "removes escalation placeholders from DSH's write and edit calls",
  },
  {
    id: 'dsh-harden-mcp-intake',
    packageName: '@dsh-harden/mcp-client',
    entry: '@dsh-harden/mcp-client',
    does: "lists every MCP server's tools tolerantly",
  },
  {
    id: 'lazy-mcp',
    packageName: '@dsh-harden/lazy-mcp',
    entry: '@dsh-harden/lazy-mcp',
    does: 'starts MCP servers on first use',
    shipsOff: true,
  },
]

/**
 * The command that adds one of our packages to a profile: DSH's own `dsh plugin add` once our packages are on npm;
 * run from a clone (this CLI is not under node_modules), the same command through the clone's local registry.
 */
export function addPackageFix(profile: string, packageName: string): ShellCommand {
  const add = shell`dsh plugin --profile ${profile} add ${packageName}`
  const here = fileURLToPath(import.meta.url)
  if (here.includes('/node_modules/')) return add
  return shell`pnpm -C ${join(here, '..', '..', '..', '..', '..')} local-registry -- ${add}`
}

export interface ProfileRows {
  readonly profile: string
  readonly dir: string
  readonly patchFile: string
  readonly layer: UserLayer
  readonly composed: Extract<Composed, { kind: 'rows' }>
}

/**
 * Our packages the profile has: named in its package.json (a dependency or a bundle layer), or one of their rows in
 * the composed tree. The overlay is always expected: it is what doctor checks a profile for.
 */
function packagesOf(rows: ProfileRows): Set<string> {
  const manifest = readJson(join(rows.dir, 'package.json')) ?? {}
  const named = new Set<string>([OVERLAY])
  const dependencies = manifest.dependencies
  if (typeof dependencies === 'object' && dependencies !== null)
    for (const name of Object.keys(dependencies)) named.add(name)
  const bundles = (manifest.dsh as { profile?: { bundles?: unknown } } | undefined)?.profile?.bundles
  if (Array.isArray(bundles)) for (const name of bundles) if (typeof name === 'string') named.add(name)
  for (const row of OUR_ROWS) if (rows.composed.rows.has(row.id)) named.add(row.packageName)
  return named
}

/** Every row of each of our packages in the profile: present, on, and its module resolvable from the profile. */
export function checkOurRows(rows: ProfileRows, findings: Finding[]): void {
  const present = packagesOf(rows)
  const expected = OUR_ROWS.filter((row) => present.has(row.packageName))
  if (expected.every((row) => !rows.composed.rows.has(row.id))) {
    findings.push(
      failure(
        'overlay',
        `profile ${rows.profile} has no dsh-harden rows: the overlay is not installed there (${rows.dir})`,
        addPackageFix(rows.profile, OVERLAY),
        'overlay',
      ),
    )
    return
  }
  for (const row of expected) {
    const composed = rows.composed.rows.get(row.id)
    const finding = rowFinding(rows, row, composed)
    findings.push(finding)
    if (finding.severity === 'ok') checkEntry(rows, row, findings)
  }
}

function rowFinding(rows: ProfileRows, row: OurRow, composed: ComposedRow | undefined): Finding {
  const { profile, patchFile, layer } = rows
  const what = `the ${row.id} row (${row.packageName}: it ${row.does})`
  if (composed === undefined)
    return failure(
      'row',
      `profile ${profile} has no ${row.id} row (${row.packageName}: it ${row.does}); the installed package does ` +
        'not insert it (an older release, or not added with `dsh plugin add`)',
      addPackageFix(profile, row.packageName),
      'overlay',
    )
  if (composed.disabled === 'unknown')
    return warning(
      'row',
      `profile ${profile}: ${what} has a \`disabled\` that is a !!js expression, decided at boot`,
      `make it \`disabled: false\` in ${shellWord(patchFile)}`,
    )
  if (composed.disabled && row.shipsOff === true)
    return warning(
      'row',
      `profile ${profile}: ${what} is off, as its bundle ships it, until you name the servers it serves`,
      `add the row with your servers to ${shellWord(patchFile)}: - id: ${row.id} / disabled: false / config: ` +
        'configPaths: [./.mcp.json] (see the @dsh-harden/lazy-mcp README)',
    )
  if (composed.disabled)
    return failure(
      'row',
      `profile ${profile}: ${what} is disabled, so it never runs`,
      addRowsFix(patchFile, layer, `- id: ${row.id}\n  disabled: false\n`),
      'overlay',
    )
  return ok('row', `profile ${profile}: ${what} is on (${composed.name ?? row.entry})`)
}

/**
 * The row's module as DSH's loader finds it from the profile folder: the package through Node's walk (the profile's
 * node_modules, then DSH's `profiles/node_modules`), then the entry through the package's own `exports` (resolved
 * from inside the package; every entry of ours has a `default` target, which the require conditions pick as an
 * `import()` does).
 */
function checkEntry(rows: ProfileRows, row: OurRow, findings: Finding[]): void {
  const installed = resolvePackage(rows.dir, row.packageName)
  let reason = installed === undefined ? 'not installed' : undefined
  if (installed !== undefined) {
    try {
      createRequire(join(installed.dir, 'package.json')).resolve(row.entry)
    } catch (error) {
      reason = String((error as Error).message).split('\n')[0]
    }
  }
  if (reason === undefined) return
  findings.push(
    failure(
      'package',
      `profile ${rows.profile}: the ${row.id} row imports ${row.entry}, which does not resolve from ${rows.dir} ` +
        `(${reason})`,
      shell`dsh plugin --profile ${rows.profile} install`,
      'overlay',
    ),
  )
}
