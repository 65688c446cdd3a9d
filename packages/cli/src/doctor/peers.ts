import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { type Finding, failure, ok, warning } from './finding.ts'
import { type DshInstall, PINNED_DSH } from './install.ts'
import { type ResolvedPackage, readJson, resolvePackage } from './locate.ts'
import { shell } from './shell.ts'

export interface PeerContext {
  readonly install: DshInstall
  readonly home: string
  readonly profile: string
  /** The profile folder. */
  readonly dir: string
  /**
   * The `profiles/node_modules` DSH made in a throwaway home, when the user's home has none yet: what DSH links
   * into the user's at its next start (`dsh plugin add` alone does not make it).
   */
  readonly healedFallback: string | undefined
}

/**
 * Where a peer comes from when our package loads: Node's walk from the package (the profile's node_modules, then
 * `$DSH_HOME/profiles/node_modules`); before DSH's first start made that folder, the link DSH makes there.
 */
function resolvePeer(context: PeerContext, packageDir: string, peer: string): ResolvedPackage | undefined {
  const found = resolvePackage(packageDir, peer)
  if (found !== undefined || context.healedFallback === undefined) return found
  const linked = join(context.healedFallback, peer)
  const manifest = readJson(join(linked, 'package.json'))
  if (manifest === undefined) return undefined
  const version = typeof manifest.version === 'string' ? manifest.version : undefined
  return { dir: join(context.home, 'profiles', 'node_modules', peer), version, manifest }
}

/**
 * Our packages in the profile and their peers. The profile installs with `autoInstallPeers: false`, so `dsh plugin
 * add` prints `✕ missing peer @deepseek-ai/cordis@^4.0.1` for every DSH package our plugins name as a peer; DSH
 * links its own packages into `$DSH_HOME/profiles/node_modules` (dsh-app-boot `healProfilesModuleFallback`), where
 * Node's parent walk finds them. So a peer matters only when that walk does not find it, or finds a version outside
 * the range.
 */
export function checkPeers(context: PeerContext, findings: Finding[]): void {
  const { profile, install } = context
  const scopeDir = join(context.dir, 'node_modules', '@dsh-harden')
  if (!existsSync(scopeDir)) return
  for (const short of readdirSync(scopeDir).sort()) {
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
      const resolved = resolvePeer(context, packageDir, peer)
      // An optional peer is one the package loads only when it is there.
      if (resolved === undefined && meta[peer]?.optional === true) continue
      if (resolved === undefined) {
        problem = true
        findings.push(missingPeer(context, name, peer, range))
        continue
      }
      if (resolved.version === undefined || !semver.satisfies(resolved.version, range)) {
        problem = true
        findings.push(
          warning(
            'peer',
            `profile ${profile}: ${name} ${version} is built for ${peer}@${range}, and DSH ${install.version} ` +
              `has ${resolved.version ?? '(no version)'} (${resolved.dir})`,
            `use DSH ${PINNED_DSH} with this release of ${name}, or the ${name} release built for DSH ${install.version}`,
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
          `profile ${profile}: ${name} ${version} on DSH ${install.version}` +
            (found.length === 0
              ? ''
              : `; its peers come from DSH's install (${found.join(', ')}), so the \`✕ missing peer\` lines of ` +
                '`dsh plugin add` for them do not matter'),
        ),
      )
  }
}

function missingPeer(context: PeerContext, name: string, peer: string, range: string): Finding {
  const { profile } = context
  const fallback = join(context.home, 'profiles', 'node_modules')
  if (existsSync(fallback) || context.healedFallback !== undefined)
    return failure(
      'peer',
      `profile ${profile}: ${name} needs ${peer}@${range}, and neither the profile nor DSH's install provides it`,
      shell`dsh plugin --profile ${profile} add ${`${peer}@${range}`}`,
      'overlay',
    )
  // Only with --no-write: nothing showed what DSH would link there.
  return failure(
    'peer',
    `profile ${profile}: ${name} needs ${peer}@${range}, and ${fallback}, where DSH links its own packages when it ` +
      'starts, does not exist yet',
    shell`dsh --profile ${profile} --dump-config > /dev/null`,
    'overlay',
  )
}
