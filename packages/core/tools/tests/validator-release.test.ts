import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject } from '../src/index.ts'
import {
  COMPILE_NODE_BUDGET,
  CompileBudgetError,
  compileValidator,
  ENGINE_NODE_BUDGET,
  schemaSize,
} from '../src/validate/validator.ts'
import { tally } from './work.ts'

/** A full collection, with finalizers run in between: the validator's release runs in a later task than the collection. */
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
async function collect(): Promise<void> {
  for (let round = 0; round < 4; round++) {
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
}

function toolSchema(index: number): JsonObject {
  return {
    type: 'object',
    description: `tool ${index}`,
    properties: {
      text: { type: 'string' },
      count: { type: 'integer', minimum: 0 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', `b${index}`] } },
      nested: { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
    },
    required: ['text'],
  }
}

/** Registers, validates once and drops `count` tools, keeping only weak references to what each declared. */
function cycles(count: number, offset: number): { roots: WeakRef<object>[]; nested: WeakRef<object>[] } {
  const roots: WeakRef<object>[] = []
  const nested: WeakRef<object>[] = []
  for (let index = 0; index < count; index++) {
    const contract = createToolContract(toolSchema(offset + index), { tool: `tool_${index}` })
    expect(contract.validate({ text: 'x', count: 1 })).toEqual([])
    expect(contract.validate({ count: -1 }).length).toBeGreaterThan(0)
    roots.push(new WeakRef(contract.declared))
    nested.push(new WeakRef(contract.declared.properties as object))
  }
  return { roots, nested }
}

const alive = (refs: readonly WeakRef<object>[]) => refs.filter((ref) => ref.deref() !== undefined).length

describe('compiled validators are released with their contracts', () => {
  it('after 200 tools are validated and dropped, no declared schema is kept, and at most one engine share of their parts', async () => {
    const { roots, nested } = cycles(200, 0)
    await collect()
    expect(alive(roots)).toBe(0)
    // ajv's current engine keeps what it compiled until it retires (ENGINE_NODE_BUDGET nodes, then a fresh one).
    const perTool = schemaSize(toolSchema(0)).nodes
    expect(alive(nested)).toBeLessThanOrEqual(Math.ceil(ENGINE_NODE_BUDGET / perTool) + 1)
  })

  it('live validators of the same schema share one compile, which outlives the first of them', async () => {
    const meter = tally()
    const keep = [compileValidator(toolSchema(-1), { meter })]
    const compiled = meter.of('compile-code')
    expect(compiled).toBeGreaterThan(0)
    const second = createToolContract(toolSchema(-1), { tool: 'second' })
    compileValidator(toolSchema(-1), { meter })
    expect(meter.of('compile-code')).toBe(compiled)
    keep.pop()
    await collect()
    expect(second.validate({ text: 1 })[0]).toMatchObject({ pointer: '/text', keyword: 'type' })
  })
})

/** An `allOf` of `branches` small object schemas under one property (the root may not be a union). */
function allOfSchema(branches: number, tag = ''): JsonObject {
  const parts: JsonObject[] = []
  for (let index = 0; index < branches; index++)
    parts.push({
      type: 'object',
      properties: {
        [`k${index}`]: { type: 'string', description: `field ${index}${tag}` },
        [`n${index}`]: { type: 'integer', minimum: 0 },
      },
    })
  return { type: 'object', properties: { payload: { allOf: parts } } }
}

/**
 * The compile work of a contract's first validated call (the same compile, with the contract's budget): schema nodes
 * sized and characters of code ajv generated.
 */
function firstCallWork(schema: JsonObject): number {
  const meter = tally(50_000_000)
  try {
    compileValidator(schema, { meter, nodeBudget: COMPILE_NODE_BUDGET })({ payload: {} })
  } catch (error) {
    expect(error).toBeInstanceOf(CompileBudgetError)
  }
  return meter.of('compile-node') + meter.of('compile-code')
}

describe('the first validated call compiles within a budget of schema nodes', () => {
  it('a schema over the budget is not compiled: the fallback checks it, and the problem gives its size and the budget', () => {
    const branches = Math.ceil(COMPILE_NODE_BUDGET / 3)
    const schema = allOfSchema(branches)
    const seen: unknown[] = []
    const contract = createToolContract(
      schema,
      { tool: 'big', source: 'plugin-x' },
      {
        fallbackValidator: {
          label: 'test fallback',
          validate: (_schema, args) => {
            seen.push(args)
            return []
          },
        },
      },
    )
    expect(contract.validate({ payload: { k0: 1 } })).toEqual([])
    expect(seen).toEqual([{ payload: { k0: 1 } }])
    const problem = contract.validatorProblem!
    expect(problem.identity).toEqual({ tool: 'big', source: 'plugin-x' })
    expect(problem.fallback).toBe('test fallback')
    expect(problem.construct).toMatch(/more schema nodes than the validator compiles/)
    const nodes = schemaSize(schema).nodes.toLocaleString('en-US')
    expect(problem.detail).toContain(`${nodes} schema nodes`)
    expect(problem.detail).toContain(`compile budget of ${COMPILE_NODE_BUDGET.toLocaleString('en-US')} nodes`)
  })

  it('a schema within the budget is compiled by ajv and checks every keyword', () => {
    const contract = createToolContract(allOfSchema(20), { tool: 'small' })
    expect(contract.validatorProblem).toBeUndefined()
    expect(contract.validate({ payload: { n3: -1 } })[0]).toMatchObject({ pointer: '/payload/n3' })
  })

  it('first-call compile work at most doubles when the schema doubles, through and past the budget', () => {
    const sizes = [20, 40, 80, 160, 320, 640]
    const work = sizes.map((branches) => firstCallWork(allOfSchema(branches, ' (work)')))
    expect(work[0]).toBeGreaterThan(0)
    // 2x, plus what the digits of ajv's numbered identifiers (`_errs1916`) add: one digit per tenfold, under 1%.
    for (let index = 1; index < sizes.length; index++)
      expect(
        work[index]! / work[index - 1]!,
        `work(${sizes[index]}) / work(${sizes[index - 1]})`,
      ).toBeLessThanOrEqual(2.02)
    // Past the budget only the size walk runs: far below the last compile.
    expect(work.at(-1)!).toBeLessThan(work.at(-2)! / 10)
  })
})
