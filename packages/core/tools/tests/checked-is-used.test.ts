import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject, ToolArgsError } from '../src/index.ts'

/**
 * What register() verified is what is later projected and validated: the contract keeps the copy its check made, so
 * whatever the plugin does to its own object afterwards never reaches a model request or a call's validation.
 */
const TOOL = { tool: 'mutable', source: 'plugin-under-test' }

interface PropertySchema {
  type?: unknown
  description?: string
  properties?: Record<string, unknown>
}

/** The plugin's own object, which it is free to change after register. */
interface PluginParameters {
  type?: string
  properties: Record<string, PropertySchema>
  required: string[]
  [extra: string]: unknown
}

function declared(): PluginParameters {
  return {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'file to read' },
      options: { type: 'object', properties: { depth: { type: 'integer' } } },
      payload: { description: 'any JSON' },
    },
    required: ['path'],
  }
}

/** Projection (on first read, after the plugin changed its object) and validation, as a call would see them. */
function observed(contract: ReturnType<typeof createToolContract>) {
  return {
    wire: JSON.stringify(contract.projection('deepseek').wire),
    valid: contract.validate({ path: 'a.txt', options: { depth: 1 } }),
    missingPath: contract.validate({ options: {} }).map((v) => v.pointer),
  }
}

describe('checked is what is used', () => {
  const baseline = observed(createToolContract(declared(), TOOL))

  it('keeps a detached copy: the declared schema is not the plugin object', () => {
    const parameters = declared()
    const contract = createToolContract(parameters, TOOL)
    expect(contract.declared).not.toBe(parameters)
    expect(contract.declared.properties).not.toBe(parameters.properties)
    expect(contract.declared).toEqual(parameters)
    expect(baseline.valid).toEqual([])
    expect(baseline.missingPath).toEqual(['/path'])
  })

  it('ignores mutations after register, deep and shallow', () => {
    const parameters = declared()
    const contract = createToolContract(parameters, TOOL)
    parameters.properties.path!.type = 'number'
    parameters.properties.options!.properties!.depth = { type: 'json' }
    parameters.required = ['path', 'ghost']
    parameters.additionalProperties = 'nonsense'
    delete parameters.type
    expect(observed(contract)).toEqual(baseline)
    expect((contract.declared as JsonObject).required).toEqual(['path'])
  })

  it('ignores a getter added after register, without ever invoking it', () => {
    const parameters = declared()
    const contract = createToolContract(parameters, TOOL)
    let invoked = 0
    Object.defineProperty(parameters.properties, 'path', {
      enumerable: true,
      get: () => {
        invoked++
        return { type: 'boolean' }
      },
    })
    expect(observed(contract)).toEqual(baseline)
    expect(invoked).toBe(0)
  })

  it('ignores a Proxy swapped in after register, without touching a trap', () => {
    const parameters = declared()
    const contract = createToolContract(parameters, TOOL)
    let trapped = 0
    const trap = (): never => {
      trapped++
      throw new Error('trap touched')
    }
    parameters.properties = new Proxy(parameters.properties, {
      get: trap,
      ownKeys: trap,
      getOwnPropertyDescriptor: trap,
    })
    parameters.properties_alias = parameters.properties
    expect(observed(contract)).toEqual(baseline)
    expect(trapped).toBe(0)
  })

  it('refuses a Proxy handed to register itself: its reads may differ from what was checked', () => {
    const parameters = declared()
    parameters.properties = new Proxy(parameters.properties, {})
    expect(() => createToolContract(parameters, TOOL)).toThrow(/Proxy/)
  })

  it('validates calls against the checked schema, not the mutated one', () => {
    const parameters = declared()
    const contract = createToolContract(parameters, TOOL)
    parameters.properties.path = { type: 'number' }
    parameters.required = []
    expect(() => contract.parseArguments({ path: 7 }, 'deepseek')).toThrow(ToolArgsError)
    expect(() => contract.parseArguments({}, 'deepseek')).toThrow(/path/)
    expect(contract.parseArguments({ path: 'a.txt' }, 'deepseek')).toEqual({ path: 'a.txt' })
  })
})
