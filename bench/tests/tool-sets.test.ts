import { enforceToolParameters } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { collectFirstPartyTools } from '../src/first-party-tools.ts'
import { generateTools, simpleToolSpecs } from '../src/generated-tools.ts'

describe('generateTools', () => {
  it('is deterministic, so both sides and every run register the same schemas', () => {
    const schemas = () =>
      generateTools(50).map(({ name, description, parameters }) => ({ name, description, parameters }))
    expect(schemas()).toEqual(schemas())
  })

  it('produces distinct names and parameters that pass the root contract unchanged', () => {
    const tools = generateTools(1000)
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(1000)
    for (const tool of tools) {
      // The root contract returns a detached copy (what it checked is what is used), equal to what was declared.
      const checked = enforceToolParameters(tool.parameters, { tool: tool.name, source: undefined })
      expect(checked).toStrictEqual(tool.parameters)
      expect(checked).not.toBe(tool.parameters)
    }
  })
})

describe('simpleToolSpecs', () => {
  it('gives distinct names and distinct schema texts of three properties, each passing the root contract unchanged', () => {
    const specs = simpleToolSpecs(300)
    expect(new Set(specs.map((spec) => spec.name)).size).toBe(300)
    expect(new Set(specs.map((spec) => JSON.stringify(spec.parameters))).size).toBe(300)
    for (const spec of specs) {
      expect(Object.keys(spec.parameters.properties as object)).toHaveLength(3)
      const checked = enforceToolParameters(spec.parameters, { tool: spec.name, source: undefined })
      expect(checked).toStrictEqual(spec.parameters)
    }
  })
})

describe('collectFirstPartyTools', () => {
  it('records the tools the real first-party plugins register', async () => {
    const { definitions, missing } = await collectFirstPartyTools()
    expect(missing).toEqual([])
    const names = definitions.map((definition) => definition.name)
    expect(names).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'bash', 'pwsh', 'cordis_define']))
    const bash = definitions.find((definition) => definition.name === 'bash')!
    expect(Object.keys(bash.parameters.properties as object)).toContain('sandbox_permissions')
  })
})
