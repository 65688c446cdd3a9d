import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * A package's own module graph, read from its sources' relative imports: what the packages whose folder tree is
 * their pipeline (`core/tools`, `core/overlay`) test, so that no module imports one that imports it back and no
 * stage imports a later one.
 */

export interface ModuleEdge {
  /** The imported module, as a path from the source folder. */
  readonly to: string
  /** `import type` / `export type`: erased when Node strips the types, so it loads nothing. */
  readonly typeOnly: boolean
}

/** Every `.ts` module under `sourceFolder`, by its path from there, with its relative imports and re-exports. */
export function readModuleGraph(sourceFolder: string): ReadonlyMap<string, readonly ModuleEdge[]> {
  const files = readdirSync(sourceFolder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map(slashes)
  return new Map(files.map((file) => [file, edgesOf(sourceFolder, file)]))
}

function slashes(path: string): string {
  return path.split('\\').join('/')
}

function edgesOf(sourceFolder: string, file: string): ModuleEdge[] {
  const text = readFileSync(join(sourceFolder, file), 'utf8')
  const edges: ModuleEdge[] = []
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gms)) {
    const to = slashes(relative(sourceFolder, resolve(dirname(join(sourceFolder, file)), match[2]!)))
    edges.push({ to, typeOnly: match[1] !== undefined })
  }
  return edges
}

/** Each import cycle, written `a -> b -> a`; empty when the graph has none. */
export function findImportCycles(graph: ReadonlyMap<string, readonly ModuleEdge[]>): string[] {
  const cycles: string[] = []
  for (const start of graph.keys()) {
    const done = new Set<string>()
    // An explicit stack of [module, path to it], so the walk is as deep as the graph without recursion.
    const stack: [string, readonly string[]][] = [[start, [start]]]
    while (stack.length > 0) {
      const [file, path] = stack.pop()!
      if (done.has(file)) continue
      done.add(file)
      for (const { to } of graph.get(file) ?? []) {
        if (path.includes(to)) cycles.push([...path.slice(path.indexOf(to)), to].join(' -> '))
        else stack.push([to, [...path, to]])
      }
    }
  }
  return cycles
}

/** The folder a module belongs to (its stage), or `''` for the package's top level (the entry points). */
export function stageOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : ''
}

/**
 * Each import, `from -> to`, from one stage into another that its `mayImport` entry does not list, and each module
 * in a folder `mayImport` does not name (`folder/file.ts: no stage`). A module at the top level is an entry point
 * and may import any stage.
 */
export function findStageViolations(
  graph: ReadonlyMap<string, readonly ModuleEdge[]>,
  mayImport: Readonly<Record<string, readonly string[]>>,
): string[] {
  const violations: string[] = []
  for (const [file, edges] of graph) {
    const from = stageOf(file)
    if (from === '') continue
    const allowed = mayImport[from]
    if (allowed === undefined) {
      violations.push(`${file}: no stage`)
      continue
    }
    for (const { to } of edges) {
      const stage = stageOf(to)
      if (stage !== from && !allowed.includes(stage)) violations.push(`${file} -> ${to}`)
    }
  }
  return violations
}
