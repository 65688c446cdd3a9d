import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The folder tree is the pipeline: `dsh/` is the one seam to DSH, `gate/` judges a registration, `route/` is the
 * wire and back, `web/` shows the verdicts. A register call reads top to bottom because no module imports one that
 * imports it back, and no folder imports a later stage of the pipeline.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url))

interface Edge {
  readonly to: string
  /** `import type` / `export type`: erased when Node strips the types, so it loads nothing. */
  readonly typeOnly: boolean
}

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split('\\').join('/'))
}

/** The relative imports and re-exports of one module, as paths from `src/`. */
function edgesOf(file: string): Edge[] {
  const text = readFileSync(join(SRC, file), 'utf8')
  const edges: Edge[] = []
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gms)) {
    const to = relative(SRC, resolve(dirname(join(SRC, file)), match[2]!))
      .split('\\')
      .join('/')
    edges.push({ to, typeOnly: match[1] !== undefined })
  }
  return edges
}

const GRAPH = new Map(sources().map((file) => [file, edgesOf(file)]))

/** The folder a module belongs to (`dsh`, `gate`, `route`, `web`), or `''` for the package's top level. */
function stageOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : ''
}

/** What each stage may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  dsh: [],
  gate: ['dsh'],
  route: ['dsh', 'gate'],
  web: ['dsh', 'gate'],
}

describe('the overlay’s module graph', () => {
  it('has no import that leads back to the importing module', () => {
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    // An explicit stack of [module, path to it], so the walk is as deep as the graph without recursion.
    for (const start of GRAPH.keys()) {
      const stack: [string, readonly string[]][] = [[start, [start]]]
      while (stack.length > 0) {
        const [file, path] = stack.pop()!
        if (state.get(file) === 'done') continue
        state.set(file, 'done')
        for (const { to } of GRAPH.get(file) ?? []) {
          if (path.includes(to)) cycles.push([...path.slice(path.indexOf(to)), to].join(' -> '))
          else stack.push([to, [...path, to]])
        }
      }
      state.clear()
    }
    expect(cycles).toEqual([])
  })

  it('imports only from its own stage or an earlier one of the pipeline', () => {
    const backwards: string[] = []
    for (const [file, edges] of GRAPH) {
      const allowed = MAY_IMPORT[stageOf(file)]
      if (allowed === undefined) continue
      for (const { to } of edges) {
        const stage = stageOf(to)
        if (stage !== stageOf(file) && !allowed.includes(stage)) backwards.push(`${file} -> ${to}`)
      }
    }
    expect(backwards).toEqual([])
  })

  it('keeps the early row’s module graph to the DSH seam, so it starts before other rows register', () => {
    const loaded = new Set<string>()
    const stack = ['dsh/early.ts']
    while (stack.length > 0) {
      const file = stack.pop()!
      if (loaded.has(file)) continue
      loaded.add(file)
      for (const { to, typeOnly } of GRAPH.get(file) ?? []) if (!typeOnly) stack.push(to)
    }
    expect([...loaded].sort()).toEqual([
      'dsh/early.ts',
      'dsh/instance-state.ts',
      'dsh/own-method.ts',
      'dsh/registrant.ts',
      'dsh/registry.ts',
    ])
    // And no package at run time: an `import type` of cordis is erased.
    for (const file of loaded) {
      const text = readFileSync(join(SRC, file), 'utf8')
      expect(text.match(/^import\s+(?!type\s)[^'"]*?from\s+'[^.][^']*'/gms), file).toBeNull()
    }
  })
})
