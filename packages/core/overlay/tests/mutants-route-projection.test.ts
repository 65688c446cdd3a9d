import { describe, expect, it } from 'vitest'
import { RouteProjection, type ToolsInScope } from '../src/route-projection.ts'

/**
 * The rename table a call is read back with belongs to the agent that assembled the request (issue 23 item 7: the
 * per-agent fallback survived mutation). `gh.create_issue` is renamed on DeepSeek's route (function names are
 * `^[a-zA-Z0-9_-]{1,64}$`) and sent as it is on Gemini's (dots allowed), so two agents on those routes need two tables.
 */
const DECLARED = 'gh.create_issue'
const ASSEMBLY = { tools: [{ name: DECLARED, parameters: { type: 'object', properties: {} } }] }
// No contract for the tool: only its name is at stake here.
const NO_TOOLS: ToolsInScope = () => () => undefined

function wireNameOf(assembly: { tools?: readonly { name?: unknown }[] }): string {
  const name = assembly.tools?.[0]?.name
  if (typeof name !== 'string') throw new Error('the assembly lost its tool')
  return name
}

describe('a called name is read back with the table of the agent that assembled the request', () => {
  it('an agent on a renaming route keeps its table after another agent assembles on a route that renames nothing', () => {
    const routes = new RouteProjection()
    const renaming = {}
    const plain = {}
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, renaming))
    expect(wire).not.toBe(DECLARED)
    expect(wireNameOf(routes.project(ASSEMBLY, 'gemini', undefined, NO_TOOLS, plain))).toBe(DECLARED)

    expect(routes.registeredName(wire, renaming)).toBe(DECLARED)
    // The plain agent's route sent the declared name: a call of the wire text is a name it never offered.
    expect(routes.registeredName(wire, plain)).toBeUndefined()
  })

  it('an agent whose route renamed nothing never reads the table of the agent assembled last', () => {
    const routes = new RouteProjection()
    const renaming = {}
    const plain = {}
    routes.project(ASSEMBLY, 'gemini', undefined, NO_TOOLS, plain)
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, renaming))
    expect(routes.registeredName(wire, plain)).toBeUndefined()
    expect(routes.registeredName(wire, renaming)).toBe(DECLARED)
  })

  it('a call from a scope no assembly named (or none) falls back to the last assembly’s table', () => {
    const routes = new RouteProjection()
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, {}))
    expect(routes.registeredName(wire, {})).toBe(DECLARED)
    expect(routes.registeredName(wire)).toBe(DECLARED)
    expect(routes.registeredName(DECLARED, {})).toBeUndefined()
  })
})
