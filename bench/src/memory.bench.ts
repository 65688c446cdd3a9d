import type { Context } from '@deepseek-ai/cordis'
import { type AsyncSide, compareAsync } from './async-compare.ts'
import type { MeasuredOutput, SizeResult } from './gateway-report.ts'
import { canCollectGarbage, collectGarbageSettled } from './gc.ts'
import { createToolRuntime } from './runtime.ts'

/**
 * Heap kept by tools that are gone (issue 23, item 6): 1,000 times, a plugin registers one tool with a schema of its
 * own, the tool is called once through DSH's `execute` (with `validateArguments`, the overlay compiles its validator
 * for that call), and the plugin is disposed. Measured after full collections, against the heap before the 1,000
 * cycles (and after 300 warm-up cycles, so module loading and JIT are paid first), on stock DSH and with the overlay,
 * in the same process. Target: the overlay keeps at most 5 MB more than stock.
 */
const CYCLES = 1_000
const WARMUP = 300
const TARGET_BYTES = 5 * 1024 * 1024

function schema(index: number): Record<string, unknown> {
  return {
    type: 'object',
    description: `generated tool ${index}`,
    properties: {
      text: { type: 'string', minLength: 1 },
      count: { type: 'integer', minimum: 0 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', `c${index}`] } },
      nested: { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
    },
    required: ['text'],
  }
}

interface Tools {
  execute(input: object): Promise<{ isError?: boolean }>
}

/** Registers `parameters` as tool `name` from a plugin of its own; returns the plugin's fiber. */
function registerTool(app: Context, name: string, parameters: Record<string, unknown>) {
  return app.plugin({
    name: `${name}-plugin`,
    inject: ['tools'],
    apply(ctx: Context) {
      ;(ctx as unknown as { tools: { register(definition: object): void } }).tools.register({
        name,
        description: name,
        parameters,
        output: { schema: {}, render: () => [] },
        execute: async () => 'ok',
      })
    },
  })
}

/** One call through DSH's `execute`, as the agent loop makes it; throws when it is refused. */
async function call(app: Context, name: string, args: unknown): Promise<void> {
  const tools = (app as unknown as { tools: Tools }).tools
  const result = await tools.execute({
    signal: new AbortController().signal,
    callId: name,
    name,
    arguments: args,
  })
  if (result.isError) throw new Error(`memory bench: ${name} was refused: ${JSON.stringify(result)}`)
}

async function cycle(app: Context, index: number): Promise<void> {
  const name = `memory_tool_${index}`
  const fiber = registerTool(app, name, schema(index))
  await fiber
  await call(app, name, { text: 'x', count: 1 })
  await fiber.dispose()
}

async function settledHeap(): Promise<number> {
  for (let round = 0; round < 6; round++) await collectGarbageSettled()
  return process.memoryUsage().heapUsed
}

/** Bytes the heap grew over `CYCLES` cycles on one runtime. */
async function keptBytes(hardened: boolean): Promise<number> {
  const app = await createToolRuntime({
    hardened,
    overlay: { route: 'deepseek', validateArguments: true },
  })
  for (let index = 0; index < WARMUP; index++) await cycle(app, -1 - index)
  const before = await settledHeap()
  for (let index = 0; index < CYCLES; index++) await cycle(app, index)
  const after = await settledHeap()
  return Math.max(0, after - before)
}

/** An `allOf` of `branches` small object schemas under one property: about 135 bytes and 3 schema nodes each. */
function allOfSchema(branches: number, tag: number): Record<string, unknown> {
  const parts = Array.from({ length: branches }, (_, index) => ({
    type: 'object',
    properties: {
      [`k${index}`]: { type: 'string', description: `field ${index} of variant ${tag}` },
      [`n${index}`]: { type: 'integer', minimum: 0 },
    },
  }))
  return { type: 'object', properties: { payload: { allOf: parts } } }
}

let variant = 0

/** One registered tool with a schema no earlier sample compiled; timed: its first call. */
function firstCall(label: string, hardened: boolean, branches: number): AsyncSide {
  return {
    label,
    async prepare() {
      const app = await createToolRuntime({
        hardened,
        overlay: { route: 'deepseek', validateArguments: true },
      })
      const name = `big_allof_${++variant}`
      const fiber = registerTool(app, name, allOfSchema(branches, variant))
      await fiber
      return {
        run: async () => {
          await call(app, name, { payload: { k0: 'x', n1: 2 } })
          return undefined
        },
        dispose: async () => {
          await fiber.dispose()
        },
      }
    },
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`

export async function memory(): Promise<MeasuredOutput> {
  if (!canCollectGarbage) throw new Error('memory bench: needs a forced GC (run with node --expose-gc)')
  const stock = await keptBytes(false)
  const overlay = await keptBytes(true)
  const result: SizeResult = {
    kind: 'size',
    name: `heap kept after ${CYCLES.toLocaleString('en-US')} register / validate / unregister cycles`,
    peer: { label: 'stock DSH', bytes: stock },
    subject: { label: 'overlay, validateArguments', bytes: overlay },
    ratio: stock === 0 ? Number.POSITIVE_INFINITY : overlay / stock,
    notes: [
      `bytes are heap bytes (process.memoryUsage().heapUsed after forced collections), not context bytes; ignore ≈tokens`,
      `overlay − stock: ${mb(overlay - stock)} (target: at most ${mb(TARGET_BYTES)}); stock ${mb(stock)}, overlay ${mb(overlay)}`,
      `${WARMUP} warm-up cycles first on each side; both runtimes in this process, stock first`,
    ],
  }
  const results = []
  for (const branches of [225, 450, 900]) {
    const bytes = JSON.stringify(allOfSchema(branches, 0)).length
    results.push(
      await compareAsync({
        name: `first call, allOf of ${branches} objects (${Math.round(bytes / 1000)} KB, ${3 * branches + 3} nodes)`,
        opsPerSample: 1,
        peer: firstCall('stock first call', false, branches),
        subject: firstCall('overlay first call', true, branches),
        warmup: 1,
        rounds: 5,
        notes: [
          branches * 3 + 3 > 1_000
            ? 'over the compile budget (1,000 schema nodes): DSH validateJsonSchemaValue checks the call, as in stock'
            : 'within the compile budget: the overlay compiles the hot and the full ajv validator for this call',
        ],
      }),
    )
  }
  return { results, sizes: [result] }
}
