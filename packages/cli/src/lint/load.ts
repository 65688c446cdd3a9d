import { readFile, stat } from 'node:fs/promises'
import { registerHooks } from 'node:module'
import { extname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { messageOf } from './inject.ts'
import { asMainScript } from './main-script.ts'
import { locateSyntaxError } from './syntax-position.ts'

/** A plugin the CLI could not load; the message names the path and says what to do. */
export class PluginLoadError extends Error {
  override readonly name = 'PluginLoadError'
  /** What lint noticed on the way (an odd `inject`, stand-ins), printed with the reason. */
  readonly notes: readonly string[]

  constructor(message: string, notes: readonly string[] = []) {
    super(message)
    this.notes = notes
  }
}

export interface LoadedPlugin {
  /** The module file that was imported (the entry point, for a package directory). */
  readonly file: string
  /** A function, a class, or an object with `apply`, as cordis accepts it. */
  readonly plugin: object
  /** The name cordis will give the plugin's fiber, when the plugin declares one. */
  readonly name: string | undefined
}

/** What Node can `import()` as code ('' is a file without an extension, read by Node's module-syntax detection). */
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', ''])

/** Node's own ESM condition order for an `import()` (the `exports` conditions a package resolves through). */
const CONDITIONS = new Set(['node', 'import', 'module-sync', 'default'])

export async function loadPlugin(target: string, cwd: string): Promise<LoadedPlugin> {
  // resolve() reads '' as the working directory, which would lint whatever package that is.
  if (target.trim() === '')
    throw new PluginLoadError('the plugin path is empty; pass a plugin module file or package directory')
  const path = resolve(cwd, target)
  const info = await stat(path).catch(() => undefined)
  if (info === undefined) throw new PluginLoadError(`${target}: no such file or directory`)
  const file = info.isDirectory() ? await packageEntry(path, target) : path
  if (!MODULE_EXTENSIONS.has(extname(file))) {
    throw new PluginLoadError(
      `${target} is not a JavaScript or TypeScript module; pass the plugin's module (${[...MODULE_EXTENSIONS].filter(Boolean).join(', ')}) or its package directory`,
    )
  }
  let namespace: Record<string, unknown>
  const resolved: string[] = []
  // Every file the import resolves, so a syntax error somewhere in the plugin's own imports can be found again.
  const hooks = registerHooks({
    resolve(specifier, context, nextResolve) {
      const result = nextResolve(specifier, context)
      if (result.url.startsWith('file:')) resolved.push(fileURLToPath(result.url))
      return result
    },
  })
  try {
    namespace = await asMainScript(
      file,
      async () => (await import(pathToFileURL(file).href)) as Record<string, unknown>,
    )
  } catch (error) {
    const shown = file === path ? target : `${target} (entry ${shownFile(file, target, cwd)})`
    if (error instanceof SyntaxError) throw await syntaxError(error, shown, target, file, resolved, cwd)
    throw new PluginLoadError(`${shown} failed to import: ${messageOf(error)}`)
  } finally {
    hooks.deregister()
  }
  const plugin = pickPlugin(namespace)
  if (plugin === undefined) {
    const names = Object.keys(namespace)
    const found = names.length === 0 ? 'it exports nothing' : `its exports are: ${names.join(', ')}`
    throw new PluginLoadError(
      `${target} exports no DSH plugin (${found}). Export the plugin as the default export: a function (ctx, config), ` +
        'a class, or an object with apply(ctx, config); or export `apply` (and `name`, `inject`) from the module itself.',
    )
  }
  return { file, plugin, name: nameOf(plugin) }
}

/** `file:line:column: syntax error: <message>`, naming the plugin when the error is in a file it imports. */
async function syntaxError(
  error: SyntaxError,
  shown: string,
  target: string,
  entry: string,
  resolved: readonly string[],
  cwd: string,
): Promise<PluginLoadError> {
  const position = await locateSyntaxError(error, entry, resolved)
  if (position === undefined) return new PluginLoadError(`${shown} has a syntax error: ${error.message}`)
  const file = shownFile(position.file, target, cwd)
  const at = `${file}:${position.line}${position.column === undefined ? '' : `:${position.column}`}`
  const via = position.file === entry ? '' : ` (imported by ${shown})`
  return new PluginLoadError(`${at}: syntax error: ${error.message}${via}`)
}

/**
 * A file of the plugin as the user should read it: absolute when they gave an absolute target (they are not in the
 * folder the CLI runs from, e.g. `pnpm -C <clone> dsh-harden lint /abs/plugin`), else relative to their folder when
 * it is inside it.
 */
function shownFile(file: string, target: string, cwd: string): string {
  if (isAbsolute(target)) return file
  const inCwd = relative(cwd, file)
  return inCwd === '' || inCwd.startsWith('..') ? file : inCwd
}

function isPlugin(value: unknown): value is object {
  if (typeof value === 'function') return true
  if (typeof value !== 'object' || value === null) return false
  try {
    return typeof (value as { apply?: unknown }).apply === 'function'
  } catch {
    return false
  }
}

/** The default export, a CommonJS `exports.default`, or a cordis-style module namespace with `apply`. */
function pickPlugin(namespace: Record<string, unknown>): object | undefined {
  const fallback = namespace.default
  if (isPlugin(fallback)) return fallback
  const nested =
    typeof fallback === 'object' && fallback !== null
      ? (fallback as { default?: unknown }).default
      : undefined
  if (isPlugin(nested)) return nested
  if (isPlugin(namespace)) return namespace
  return undefined
}

function nameOf(plugin: object): string | undefined {
  try {
    const name = (plugin as { name?: unknown }).name
    return typeof name === 'string' && name !== '' && name !== 'apply' ? name : undefined
  } catch {
    return undefined
  }
}

/** The file `import()` of the package would load: `exports["."]` under Node's import conditions, else `main`, else index.js. */
async function packageEntry(dir: string, target: string): Promise<string> {
  const manifestPath = join(dir, 'package.json')
  let manifest: { exports?: unknown; main?: unknown }
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as typeof manifest
  } catch (error) {
    const reason =
      (error as { code?: unknown }).code === 'ENOENT'
        ? 'has no package.json'
        : `has an unreadable package.json (${messageOf(error)})`
    throw new PluginLoadError(
      `${target} is a directory that ${reason}; pass a package directory or a module file`,
    )
  }
  if (manifest.exports !== undefined && manifest.exports !== null) {
    const entry = exportsEntry(manifest.exports)
    if (entry === undefined) {
      throw new PluginLoadError(
        `${target}/package.json: \`exports\` has no "." entry under the conditions import/node/default; export the plugin module as "."`,
      )
    }
    return resolveInside(dir, entry, target)
  }
  if (typeof manifest.main === 'string') return resolveInside(dir, manifest.main, target, true)
  return resolveInside(dir, 'index.js', target)
}

function exportsEntry(exports: unknown): string | undefined {
  if (typeof exports === 'string' || Array.isArray(exports)) return conditional(exports)
  if (typeof exports !== 'object' || exports === null) return undefined
  const keys = Object.keys(exports)
  // A subpath map ({ ".": …, "./x": … }) versus a bare conditions object ({ import: …, default: … }).
  if (keys.some((key) => key.startsWith('.'))) return conditional((exports as Record<string, unknown>)['.'])
  return conditional(exports)
}

function conditional(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    for (const item of value) {
      const entry = conditional(item)
      if (entry !== undefined) return entry
    }
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  for (const [condition, target] of Object.entries(value)) {
    if (!CONDITIONS.has(condition)) continue
    const entry = conditional(target)
    if (entry !== undefined) return entry
  }
  return undefined
}

async function resolveInside(
  dir: string,
  entry: string,
  target: string,
  legacyMain = false,
): Promise<string> {
  const file = resolve(dir, entry)
  if (relative(dir, file).startsWith('..')) {
    throw new PluginLoadError(`${target}/package.json: entry ${entry} points outside the package`)
  }
  // `main` keeps CommonJS-era lookup (extension and index.js); `exports` targets are exact.
  const candidates = legacyMain ? [file, `${file}.js`, join(file, 'index.js')] : [file]
  for (const candidate of candidates) {
    const info = await stat(candidate).catch(() => undefined)
    if (info?.isFile()) return candidate
  }
  throw new PluginLoadError(`${target}/package.json: entry ${entry} does not exist`)
}
