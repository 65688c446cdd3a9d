import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { type Composed, type ComposedRow, dumpConfig } from './composed.ts'
import { type Finding, failure, ok, warning } from './finding.ts'
import { type DshInstall, PINNED_DSH } from './install.ts'
import { readJson, resolvePackage } from './locate.ts'
import { addRowsFix, emptyFlowListLines, readUserLayer, type UserLayer } from './user-layer.ts'

/** rc.8 refuses to boot a profile without it: `user patch-layer watching requires the Cordis HMR service`. */
export const HMR_ROWS = '- id: hmr\n  disabled: false\n'
const OVERLAY = '@dsh-harden/overlay'
/** The rows `@dsh-harden/overlay`'s bundle layer inserts (packages/core/overlay/cordis.patch.yml). */
const OVERLAY_ROWS = [
  { id: 'dsh-harden', name: OVERLAY, does: 'checks every tool registration' },
  {
    id: 'dsh-harden-early',
    name: `${OVERLAY}/early`,
    does: 'names the plugin of tools registered before the overlay',
  },
] as const

/**
 * The command that installs the overlay into a profile: DSH's own `dsh plugin add` once our packages are on npm;
 * run from a clone (this CLI is not under node_modules), the same command through the clone's local registry.
 */
function overlayAddFix(profile: string): string {
  const add = `dsh plugin --profile ${profile} add ${OVERLAY}`
  const here = fileURLToPath(import.meta.url)
  if (here.includes('/node_modules/')) return add
  return `pnpm -C ${join(here, '..', '..', '..', '..', '..')} local-registry -- ${add}`
}

export interface ProfileContext {
  readonly install: DshInstall
  /** The DSH home (`DSH_HOME`, default `~/.dsh`). */
  readonly home: string
  /** The environment `dsh` runs with (its PATH, and `DSH_HOME` set to `home`). */
  readonly env: NodeJS.ProcessEnv
}

/** The profiles doctor checks when none is named: every profile directory of the home. */
export function profilesOf(home: string): string[] {
  const dir = join(home, 'profiles')
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name)
    .sort()
}

/** Every check of one profile: its directory, its own patch layer, the composed rows, and our packages in it. */
export async function checkProfile(
  context: ProfileContext,
  profile: string,
  findings: Finding[],
): Promise<void> {
  const dir = join(context.home, 'profiles', profile)
  const patchFile = join(dir, 'cordis.patch.yml')
  if (!existsSync(join(dir, 'package.json'))) {
    findings.push(
      failure(
        'profile',
        `profile ${profile} does not exist (${dir}); dsh creates it on first start without the hmr row rc.8 needs`,
        `dsh --profile ${profile} --dump-config > /dev/null && ${addRowsFix(patchFile, { kind: 'missing' }, HMR_ROWS)}`,
        'dsh',
      ),
    )
    return
  }
  findings.push(ok('profile', `profile ${profile}: ${dir}`))
  const layer = readUserLayer(patchFile)
  if (!checkUserLayer(profile, patchFile, layer, findings)) return
  const composed = await dumpConfig(context.install.bin, profile, context.env)
  if (composed.kind === 'failed') {
    findings.push(
      failure(
        'compose',
        `\`dsh --profile ${profile} --dump-config\` fails, and so does every start of the profile: ${composed.reason}`,
        'fix what the message names (a bundle listed in dsh.profile.bundles that is not installed: ' +
          `\`dsh plugin --profile ${profile} install\`)`,
        'dsh',
      ),
    )
    return
  }
  checkHmrRow(profile, patchFile, layer, composed, findings)
  checkOverlayRows(profile, dir, patchFile, layer, composed, findings)
  checkOurPackages(context, profile, dir, findings)
}

/** The user layer parses as DSH parses it; a YAML error is named by line with the edit that fixes it. */
function checkUserLayer(profile: string, file: string, layer: UserLayer, findings: Finding[]): boolean {
  if (layer.kind === 'invalid') {
    const template = emptyFlowListLines(file)[0]
    const cause =
      template === undefined
        ? ''
        : `: DSH's template wrote the empty list \`[]\` on line ${template}, and a \`- \` row below it is a second YAML value`
    findings.push(
      failure(
        'patch-file',
        `${file}:${layer.line}:${layer.column}: YAMLException: ${layer.reason}; dsh cannot read profile ${profile}${cause}`,
        template === undefined
          ? `correct the YAML at ${file}:${layer.line}:${layer.column}`
          : `sed -i '${template}d' ${file}`,
        'dsh',
      ),
    )
    return false
  }
  if (layer.kind === 'not-a-list') {
    findings.push(
      failure(
        'patch-file',
        `${file} holds ${layer.what}, not the YAML list of patch rows DSH expects`,
        `write each row of ${file} as a list item (\`- id: …\`); the hmr row alone is: ${addRowsFix(file, { kind: 'missing' }, HMR_ROWS)}`,
        'dsh',
      ),
    )
    return false
  }
  const rows = layer.kind === 'list' ? layer.rows.length : 0
  findings.push(
    ok(
      'patch-file',
      layer.kind === 'missing'
        ? `${file} does not exist (no rows of your own)`
        : `${file} is a valid patch list (${rows} row${rows === 1 ? '' : 's'})`,
    ),
  )
  return true
}

function checkHmrRow(
  profile: string,
  file: string,
  layer: UserLayer,
  composed: Extract<Composed, { kind: 'rows' }>,
  findings: Finding[],
): void {
  const row = composed.rows.get('hmr')
  if (row !== undefined && row.disabled === false) {
    findings.push(ok('hmr-row', `profile ${profile}: the hmr row is on`))
    return
  }
  if (row?.disabled === 'unknown') {
    findings.push(
      warning(
        'hmr-row',
        `profile ${profile}: the hmr row's \`disabled\` is a !!js expression; rc.8 needs it false`,
        addRowsFix(file, layer, HMR_ROWS),
      ),
    )
    return
  }
  const state =
    row === undefined ? 'has no hmr row' : 'has the hmr row disabled (the bundle layers turn it off)'
  findings.push(
    failure(
      'hmr-row',
      `profile ${profile} ${state}; dsh exits at start with \`user patch-layer watching requires the Cordis HMR service\``,
      addRowsFix(file, layer, HMR_ROWS),
      'dsh',
    ),
  )
}

function checkOverlayRows(
  profile: string,
  dir: string,
  file: string,
  layer: UserLayer,
  composed: Extract<Composed, { kind: 'rows' }>,
  findings: Finding[],
): void {
  const present = OVERLAY_ROWS.map((spec) => ({ spec, row: composed.rows.get(spec.id) }))
  if (present.every(({ row }) => row === undefined)) {
    findings.push(
      failure(
        'overlay',
        `profile ${profile} has no dsh-harden rows: the overlay is not installed there (${dir})`,
        overlayAddFix(profile),
        'overlay',
      ),
    )
    return
  }
  for (const { spec, row } of present) findings.push(overlayRowFinding(profile, file, layer, spec, row))
  const installed = resolvePackage(dir, OVERLAY)
  if (installed === undefined)
    findings.push(
      failure(
        'overlay',
        `profile ${profile} lists the dsh-harden rows, but ${OVERLAY} is not installed in ${dir}`,
        `dsh plugin --profile ${profile} install`,
        'overlay',
      ),
    )
}

function overlayRowFinding(
  profile: string,
  file: string,
  layer: UserLayer,
  spec: (typeof OVERLAY_ROWS)[number],
  row: ComposedRow | undefined,
): Finding {
  const rowText = `- id: ${spec.id}\n  disabled: false\n`
  if (row === undefined)
    return failure(
      'overlay-row',
      `profile ${profile} has no ${spec.id} row (it ${spec.does})`,
      overlayAddFix(profile),
      'overlay',
    )
  if (row.disabled === true)
    return failure(
      'overlay-row',
      `profile ${profile}: the ${spec.id} row is disabled, so it never runs (it ${spec.does})`,
      addRowsFix(file, layer, rowText),
      'overlay',
    )
  if (row.disabled === 'unknown')
    return warning(
      'overlay-row',
      `profile ${profile}: the ${spec.id} row's \`disabled\` is a !!js expression decided at boot`,
      `make it \`disabled: false\` in ${file}`,
    )
  return ok('overlay-row', `profile ${profile}: the ${spec.id} row is on (${row.name ?? spec.name})`)
}

/**
 * Our packages in the profile and their peers. The profile installs with `autoInstallPeers: false`, so `dsh plugin
 * add` prints `✕ missing peer @deepseek-ai/cordis@^4.0.1` for every DSH package our plugins name as a peer; DSH
 * links its own packages into `$DSH_HOME/profiles/node_modules` (dsh-app-boot `healProfilesModuleFallback`), where
 * Node's parent walk finds them. So a peer matters only when that walk does not find it, or finds a version outside
 * the range.
 */
function checkOurPackages(context: ProfileContext, profile: string, dir: string, findings: Finding[]): void {
  const scopeDir = join(dir, 'node_modules', '@dsh-harden')
  if (!existsSync(scopeDir)) return
  const names = readdirSync(scopeDir).sort()
  for (const short of names) {
    const name = `@dsh-harden/${short}`
    const packageDir = join(scopeDir, short)
    const manifest = readJson(join(packageDir, 'package.json'))
    if (manifest === undefined) continue
    const version = typeof manifest.version === 'string' ? manifest.version : '(no version)'
    const peers = Object.entries((manifest.peerDependencies ?? {}) as Record<string, string>)
    const meta = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: unknown }>
    const found: string[] = []
    let problem = false
    for (const [peer, range] of peers) {
      const resolved = resolvePackage(packageDir, peer)
      // An optional peer is one the package loads only when it is there.
      if (resolved === undefined && meta[peer]?.optional === true) continue
      if (resolved === undefined) {
        problem = true
        findings.push(
          failure(
            'peer',
            `profile ${profile}: ${name} needs ${peer}@${range}, and neither the profile nor DSH's install provides it`,
            existsSync(join(context.home, 'profiles', 'node_modules'))
              ? `dsh plugin --profile ${profile} add ${peer}@"${range}"`
              : `dsh --profile ${profile} --dump-config > /dev/null (DSH links its own packages into ` +
                  `${join(context.home, 'profiles', 'node_modules')} when it starts)`,
            'overlay',
          ),
        )
        continue
      }
      if (resolved.version === undefined || !semver.satisfies(resolved.version, range)) {
        problem = true
        findings.push(
          warning(
            'peer',
            `profile ${profile}: ${name} ${version} is built for ${peer}@${range}, and DSH ${context.install.version} ` +
              `has ${resolved.version ?? '(no version)'} (${resolved.dir})`,
            `use DSH ${PINNED_DSH} with this release of ${name}, or the ${name} release built for DSH ${context.install.version}`,
          ),
        )
        continue
      }
      found.push(`${peer} ${resolved.version}`)
    }
    if (!problem)
      findings.push(
        ok(
          'package',
          `profile ${profile}: ${name} ${version} on DSH ${context.install.version}` +
            (found.length === 0
              ? ''
              : `; its peers come from DSH's install (${found.join(', ')}), so the \`✕ missing peer\` lines of ` +
                '`dsh plugin add` for them do not matter'),
        ),
      )
  }
}
