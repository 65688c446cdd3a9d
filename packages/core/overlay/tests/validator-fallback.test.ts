import type { Context } from '@deepseek-ai/cordis'
import type { JsonObject } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { verdictLedgerOf } from '../src/dsh/verdicts.ts'
import { HardenOverlay, installOnToolsService } from '../src/index.ts'
import { captureStderr, dshRuntime, tool, toolPlugin, VALID } from './fixtures.ts'

/**
 * Schemas the root contract accepts but ajv 8.17 cannot compile (the real causes listed in
 * `@dsh-harden/tools`' validator-problem test): the overlay registers the tool, prints why, and DSH's own
 * `validateJsonSchemaValue` checks its arguments in a real DSH `ToolRuntime`.
 */
function nestedObjects(depth: number): JsonObject {
  let node: JsonObject = { type: 'string' }
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { a: node } }
  return { type: 'object', properties: { root: node }, required: ['root'] }
}

const CAUSES: readonly {
  name: string
  schema: JsonObject
  construct: RegExp
  good: unknown
  bad: unknown
  complaint: string
}[] = [
  {
    name: 'a `$id` used twice',
    schema: {
      type: 'object',
      properties: {
        a: { $id: 'http://example.com/shared', type: 'string' },
        b: { $id: 'http://example.com/shared', type: 'number' },
      },
      required: ['a'],
    },
    construct: /`\$id` or `\$anchor` used twice/,
    good: { a: 'x', b: 2 },
    bad: { a: 1 },
    complaint: '"arguments.a" must be a string',
  },
  {
    name: '1,000 nested objects (more nodes than the compile budget)',
    schema: nestedObjects(1_000),
    construct: /more schema nodes than the validator compiles/,
    good: { root: { a: { a: {} } } },
    bad: { root: { a: 'flat' } },
    complaint: '"arguments.root.a" must be an object',
  },
  {
    name: '600 nested objects (within the budget, deeper than ajv compiles)',
    schema: nestedObjects(600),
    construct: /nesting deeper than it compiles/,
    good: { root: { a: { a: {} } } },
    bad: { root: { a: 'flat' } },
    complaint: '"arguments.root.a" must be an object',
  },
]

interface CallResult {
  readonly isError: boolean
  readonly error?: { message: string }
  readonly value?: unknown
}

/** A call through DSH's own `ToolRuntime.execute`, as the agent loop makes it. */
function call(app: Context, name: string, args: unknown): Promise<CallResult> {
  const tools = (app as unknown as { tools: { execute(input: object): Promise<CallResult> } }).tools
  return tools.execute({ signal: new AbortController().signal, callId: 'c1', name, arguments: args })
}

/** Mounts the tool; with `good`, also makes one call with it, the first that needs the validator. */
async function mount(schema: JsonObject, good?: unknown) {
  const app = await dshRuntime()
  const received: unknown[] = []
  const definition = tool('deep_tool', schema)
  definition.execute = async (args: unknown) => {
    received.push(args)
    return 'ran'
  }
  const stderr = captureStderr()
  try {
    await app.plugin(HardenOverlay, { route: 'deepseek', validateArguments: true })
    await app.plugin(toolPlugin('third-party', definition))
    if (good !== undefined) await call(app, 'deep_tool', good)
  } finally {
    stderr.restore()
  }
  return { app, received, notices: stderr.text() }
}

describe('a tool whose schema ajv cannot compile, in a real DSH ToolRuntime', () => {
  for (const cause of CAUSES) {
    describe(cause.name, () => {
      it('is registered, with one notice naming the tool, its plugin, the construct and the fallback by its first call', async () => {
        const { app, notices } = await mount(cause.schema, cause.good)
        expect(app.tools.get('deep_tool')).toBeDefined()
        const lines = notices.trim().split('\n')
        expect(lines).toHaveLength(1)
        expect(lines[0]).toContain('dsh-harden: tool "deep_tool" from plugin "third-party" is registered')
        expect(lines[0]).toMatch(cause.construct)
        expect(lines[0]).toContain('checked by DSH validateJsonSchemaValue instead')
        // The Web UI's record of it: the newest verdict for the tool.
        const raw = (app.tools as unknown as Record<symbol, object>)[Symbol.for('cordis.original')]!
        expect(
          verdictLedgerOf(raw)
            .snapshot()
            .verdicts.map((v) => [v.identity.tool, v.kind]),
        ).toEqual([['deep_tool', 'fallback-validator']])
      })

      it("refuses a bad argument with DSH's validator verdict and runs the tool on a good one", async () => {
        const { app, received } = await mount(cause.schema)
        const refused = await call(app, 'deep_tool', cause.bad)
        expect(refused.isError).toBe(true)
        expect(refused.error?.message).toContain('invalid arguments for tool "deep_tool" from "third-party"')
        expect(refused.error?.message).toContain(cause.complaint)
        expect(received).toEqual([])

        const accepted = await call(app, 'deep_tool', cause.good)
        expect(accepted).toMatchObject({ isError: false, value: 'ran' })
        expect(received).toEqual([cause.good])
      })
    })
  }

  it('the plugin compiles no validator at register: nothing is said until a call needs one', async () => {
    const { app, notices } = await mount(CAUSES[0]!.schema)
    expect(app.tools.get('deep_tool')).toBeDefined()
    expect(notices).toBe('')
  })

  it('prints nothing for a schema ajv compiles', async () => {
    const { notices } = await mount(VALID, { text: 'x' })
    expect(notices).toBe('')
  })

  it('still reaches stderr when the guard is installed without a notice channel', async () => {
    const app = await dshRuntime()
    const stderr = captureStderr()
    try {
      // A bare guard compiles the validator at register, so the notice comes there, before any call.
      installOnToolsService(app, { mode: 'throw' })
      app.tools.register(tool('dup', CAUSES[0]!.schema))
    } finally {
      stderr.restore()
    }
    expect(app.tools.get('dup')).toBeDefined()
    expect(stderr.text()).toMatch(/tool "dup" is registered, but ajv cannot compile its parameters/)
  })
})
