import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  findImportCycles,
  findStageViolations,
  type ModuleEdge,
  readModuleGraph,
} from '../../../../scripts/module-graph.ts'

/**
 * The folder tree is the pipeline a tool schema passes, in this order: `json/` (plain JSON values, pointers, limits,
 * the work meter), `schema/` (the JSON Schema vocabulary, subschemas, local `$ref`s), `check/` (the root contract at
 * register), `repair/` (one-meaning repairs), `projection/` (the wire per route), `read/` (a call's arguments read
 * back), `validate/` (the validator and its pattern engine), `contract/` (the tool contract that ties them), `mcp/`
 * (the MCP boundary and route verdicts). A stage imports only itself and the stages before it.
 */
const PIPELINE = [
  'json',
  'schema',
  'check',
  'repair',
  'projection',
  'read',
  'validate',
  'contract',
  'mcp',
] as const

const MAY_IMPORT = Object.fromEntries(PIPELINE.map((stage, i) => [stage, PIPELINE.slice(0, i)]))
const GRAPH = readModuleGraph(fileURLToPath(new URL('../src/', import.meta.url)))

describe('the tools package’s module graph', () => {
  it('has every module in a stage of the pipeline, and only index.ts at the top', () => {
    expect([...GRAPH.keys()].filter((file) => !file.includes('/'))).toEqual(['index.ts'])
    expect(GRAPH.size).toBeGreaterThan(50)
  })

  it('has no import that leads back to the importing module', () => {
    expect(findImportCycles(GRAPH)).toEqual([])
  })

  it('imports only from its own stage or an earlier one, types included', () => {
    expect(findStageViolations(GRAPH, MAY_IMPORT)).toEqual([])
  })
})

describe('the module-graph checks find what they look for', () => {
  const edge = (to: string): ModuleEdge => ({ to, typeOnly: false })

  it('names each cycle along its path', () => {
    const graph = new Map([
      ['a/one.ts', [edge('a/two.ts')]],
      ['a/two.ts', [edge('b/three.ts')]],
      ['b/three.ts', [edge('a/one.ts')]],
      ['b/four.ts', []],
    ])
    expect(findImportCycles(graph)).toContain('a/one.ts -> a/two.ts -> b/three.ts -> a/one.ts')
    expect(findImportCycles(new Map([['a/one.ts', [edge('a/two.ts')]]]))).toEqual([])
  })

  it('names a backward import and a module in no stage, and lets the top level import anything', () => {
    const graph = new Map([
      ['json/value.ts', [edge('check/root.ts')]],
      ['check/root.ts', [edge('json/value.ts')]],
      ['extra/odd.ts', []],
      ['index.ts', [edge('check/root.ts')]],
    ])
    expect(findStageViolations(graph, { json: [], check: ['json'] })).toEqual([
      'json/value.ts -> check/root.ts',
      'extra/odd.ts: no stage',
    ])
  })
})
