import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Composed, dumpConfig } from './composed.ts'
import { type Finding, failure, ok, skipped, warning } from './finding.ts'
import type { DshInstall } from './install.ts'
import { checkPeers } from './peers.ts'
import { checkOurRows } from './rows.ts'
import { shell, shellWord } from './shell.ts'
import { DUMP_WRITES, type ThrowawayHome, throwawayHome } from './throwaway-home.ts'
import {
  addRowsFix,
  emptyFlowListLines,
  readUserLayer,
  type UserLayer,
  writeRowsCommand,
} from './user-layer.ts'

/** rc.8 refuses to boot a profile without it: `user patch-layer watching requires the Cordis HMR service`. */
export const HMR_ROWS = '- id: hmr\n  disabled: false\n'

export interface ProfileContext {
  readonly install: DshInstall
  /** The DSH home (`DSH_HOME`, default `~/.dsh`). */
  readonly home: string
  /** The environment the user's `dsh` runs with (their shell's PATH). */
  readonly env: NodeJS.ProcessEnv
  /** `--no-write`: skip the checks that need DSH to write (to a throwaway copy of the home). */
  readonly noWrite: boolean
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

/** The checks that read DSH's own composition, which only `dsh --dump-config` gives and which writes to a home. */
const COMPOSED_CHECKS = ['compose', 'hmr-row', 'row'] as const

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
        shell`dsh --profile ${profile} --dump-config > /dev/null && ${writeRowsCommand(patchFile, HMR_ROWS)}`,
        'dsh',
      ),
    )
    return
  }
  findings.push(ok('profile', `profile ${profile}: ${dir}`))
  const layer = readUserLayer(patchFile)
  if (!checkUserLayer(profile, patchFile, layer, findings)) return
  const peers = { install: context.install, home: context.home, profile, dir }
  if (context.noWrite) {
    for (const check of COMPOSED_CHECKS)
      findings.push(
        skipped(
          check,
          `profile ${profile}: skipped by --no-write; it needs \`dsh --profile ${profile} --dump-config\`, which ` +
            `writes ${DUMP_WRITES} (doctor runs it in a throwaway copy of the home)`,
        ),
      )
    checkPeers({ ...peers, healedFallback: undefined }, findings)
    return
  }
  const copy = throwawayHome(context.home, profile)
  try {
    const composed = await compose(context, profile, copy, findings)
    if (composed === undefined) return
    checkHmrRow(profile, patchFile, layer, composed, findings)
    checkOurRows({ profile, dir, patchFile, layer, composed }, findings)
    const fallback = join(context.home, 'profiles', 'node_modules')
    const healed = join(copy.dir, 'profiles', 'node_modules')
    checkPeers({ ...peers, healedFallback: existsSync(fallback) ? undefined : healed }, findings)
  } finally {
    copy.dispose()
  }
}

/** DSH's own composition of the profile, run in the throwaway home; a failure names the user's files, not the copy's. */
async function compose(
  context: ProfileContext,
  profile: string,
  copy: ThrowawayHome,
  findings: Finding[],
): Promise<Extract<Composed, { kind: 'rows' }> | undefined> {
  const composed = await dumpConfig(context.install.bin, profile, { ...context.env, DSH_HOME: copy.dir })
  if (composed.kind === 'rows') {
    findings.push(
      ok(
        'compose',
        `profile ${profile}: composed by \`dsh --profile ${profile} --dump-config\` in a throwaway copy of the home, ` +
          `because that command writes ${DUMP_WRITES}; ${context.home} is left as it was (--no-write skips this)`,
      ),
    )
    return composed
  }
  const reason = composed.reason.replaceAll(copy.dir, context.home)
  findings.push(
    failure(
      'compose',
      `\`dsh --profile ${profile} --dump-config\` fails, and so does every start of the profile: ${reason}`,
      'fix what the message names (a bundle listed in dsh.profile.bundles that is not installed: ' +
        `\`${shell`dsh plugin --profile ${profile} install`.line}\`)`,
      'dsh',
    ),
  )
  return undefined
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
          ? `correct the YAML at line ${layer.line}, column ${layer.column} of ${shellWord(file)}`
          : shell`sed -i ${`${template}d`} ${file}`,
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
        `write each row of ${shellWord(file)} as a list item (\`- id: …\`); the hmr row alone is: ` +
          writeRowsCommand(file, HMR_ROWS).line,
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
