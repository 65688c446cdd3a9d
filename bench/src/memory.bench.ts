import type { Context } from '@deepseek-ai/cordis'
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

async function cycle(app: Context, index: number): Promise<void> {
  const name = `memory_tool_${index}`
  const fiber = app.plugin({
    name: `memory-plugin-${index}`,
    inject: ['tools'],
    apply(ctx: Context) {
      ;(ctx as unknown as { tools: { register(definition: object): void } }).tools.register({
        name,
        description: name,
        parameters: schema(index),
        output: { schema: {}, render: () => [] },
        execute: async () => 'ok',
      })
    },
  })
  await fiber
  const tools = (app as unknown as { tools: Tools }).tools
  const result = await tools.execute({
    signal: new AbortController().signal,
    callId: `c${index}`,
    name,
    arguments: { text: 'x', count: 1 },
  })
  if (result.isError) throw new Error(`memory bench: ${name} was refused: ${JSON.stringify(result)}`)
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
    overlay: { profile: 'deepseek', validateArguments: true },
  })
  for (let index = 0; index < WARMUP; index++) await cycle(app, -1 - index)
  const before = await settledHeap()
  for (let index = 0; index < CYCLES; index++) await cycle(app, index)
  const after = await settledHeap()
  return Math.max(0, after - before)
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
  return { results: [], sizes: [result] }
}
