import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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

/**
 * The npm package a loader row's module specifier came from (`options.name` of a profile row: a package name, or a
 * path whose nearest `package.json` names it); undefined when it names none.
 */
export function packageOfSpecifier(specifier: string): string | undefined {
  const bare = barePackage(specifier)
  if (bare !== undefined) return bare
  if (specifier.startsWith('file:')) return nearestPackageName(fileURLToPath(specifier))
  return isAbsolute(specifier) ? nearestPackageName(specifier) : undefined
}
