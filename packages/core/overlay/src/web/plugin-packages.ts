import { packageOfSpecifier } from '../dsh/plugin-package.ts'

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
