import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findImportCycles, findStageViolations, readModuleGraph } from '../../../../scripts/module-graph.ts'

/**
 * The folder tree is the pipeline: `dsh/` is the one seam to DSH, `gate/` judges a registration, `route/` is the
 * wire and back, `web/` shows the verdicts. A register call reads top to bottom because no module imports one that
 * imports it back, and no folder imports a later stage of the pipeline.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const GRAPH = readModuleGraph(SRC)

/** What each stage may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  dsh: [],
  gate: ['dsh'],
  route: ['dsh', 'gate'],
  web: ['dsh', 'gate'],
}

describe('the overlay’s module graph', () => {
  it('has no import that leads back to the importing module', () => {
    expect(findImportCycles(GRAPH)).toEqual([])
  })

  it('imports only from its own stage or an earlier one of the pipeline', () => {
    expect(findStageViolations(GRAPH, MAY_IMPORT)).toEqual([])
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
