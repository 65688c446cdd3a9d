import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The slice of rc.8's `ctx.loader` (`@deepseek-ai/cordis-plugin-loader`, `Loader.entries()`) this module reads: each
 * profile row's module specifier (`options.name`, what `dsh plugin add` put in the profile) and the fiber it runs as.
 * DSH's own plugin inventory (`@deepseek-ai/dsh-host-plugin-inventory`, `PluginInventoryGateway.list`) reads the same.
 */
export interface LoaderFace {
  entries(): Iterable<{
    readonly options: { readonly name?: unknown }
    readonly fiber?: { readonly name?: unknown } | undefined
  }>
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for anything that is not a bare specifier. */
function barePackage(specifier: string): string | undefined {
  if (
    specifier === '' ||
    specifier.startsWith('.') ||
    isAbsolute(specifier) ||
    /^[a-z][a-z\d+.-]*:/i.test(specifier)
  )
    return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? (parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined) : parts[0]
}

/** The `name` of the nearest package.json at or above `file`, for a row that names a path instead of a package. */
function nearestPackageName(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }
      if (typeof name === 'string' && name !== '') return name
    } catch {
      // No readable package.json here: look one folder up.
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** The npm package a loader row's module specifier came from. */
export function packageOfSpecifier(specifier: string): string | undefined {
  const bare = barePackage(specifier)
  if (bare !== undefined) return bare
  if (specifier.startsWith('file:')) return nearestPackageName(fileURLToPath(specifier))
  return isAbsolute(specifier) ? nearestPackageName(specifier) : undefined
}

/**
 * Plugin name (what a tool's `source` says: cordis' fiber name) → the npm package of the loader row that runs it,
 * when exactly one package runs under that name; a name two packages share is left unknown rather than guessed.
 */
export function packagesByPluginName(loader: LoaderFace | undefined): ReadonlyMap<string, string> {
  const found = new Map<string, string | null>()
  if (loader === undefined) return new Map()
  for (const entry of loader.entries()) {
    const plugin = entry.fiber?.name
    const specifier = entry.options.name
    if (typeof plugin !== 'string' || typeof specifier !== 'string') continue
    const name = packageOfSpecifier(specifier)
    if (name === undefined) continue
    const known = found.get(plugin)
    found.set(plugin, known === undefined || known === name ? name : null)
  }
  const packages = new Map<string, string>()
  for (const [plugin, name] of found) if (name !== null) packages.set(plugin, name)
  return packages
}
