import type { Context } from '@deepseek-ai/cordis'
import { judgeMcpSchema } from '@dsh-harden/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { HardenOverlay } from '../src/index.ts'
import { captureStderr, dshRuntime, tool, toolPlugin } from './fixtures.ts'

/**
 * Issue 24 item 3 in the real DSH registry (`@deepseek-ai/dsh-tools` `ToolRuntime`): a plugin tool whose schema has
 * exactly one meaning is served under `mode: repair` as the MCP boundary serves the same schema listed by a server
 * (one repairer), and in the default mode it is withheld with a notice that offers `mode: repair`.
 */
interface Runtime {
  tools: {
    execute(input: object): Promise<{ isError?: boolean }>
    get(name: string): { parameters: unknown } | undefined
  }
}

let stderr: ReturnType<typeof captureStderr> | undefined
afterEach(() => {
  stderr?.restore()
  stderr = undefined
})

const UNION = {
  anyOf: [
    { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  ],
}

const SHAPES: readonly { name: string; parameters: unknown; call: object }[] = [
  {
    // earendil-works/pi#7010, farion1231/cc-switch#7023.
    name: 'required_null',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: null },
    call: { q: 'x' },
  },
  {
    // A Go server marshalling nil slices and maps.
    name: 'nested_nulls',
    parameters: {
      type: 'object',
      properties: { filter: { type: 'object', properties: null, required: null } },
      required: ['filter'],
    },
    call: { filter: {} },
  },
  { name: 'properties_null', parameters: { type: 'object', properties: null }, call: {} },
  // kaeawc/auto-mobile#973.
  { name: 'root_union', parameters: UNION, call: { id: 'a' } },
  // zod 4 through zod-to-json-schema (server-filesystem 2025.8.21).
  { name: 'schema_only', parameters: { $schema: 'http://json-schema.org/draft-07/schema#' }, call: {} },
  // iBUHub/AIStudioToAPI#154.
  {
    name: 'undeclared_required',
    parameters: { type: 'object', properties: {}, required: ['ref'] },
    call: { ref: 'e1' },
  },
]

async function session(config?: object): Promise<Context & Runtime & { received: unknown[] }> {
  const app = (await dshRuntime()) as unknown as Context & Runtime & { received: unknown[] }
  stderr = captureStderr()
  await app.plugin(HardenOverlay, config)
  app.received = []
  const definitions = SHAPES.map(({ name, parameters }) => {
    const definition = tool(name, structuredClone(parameters))
    definition.execute = async (args: unknown) => {
      app.received.push(args)
      return 'ok'
    }
    return definition
  })
  await app.plugin(toolPlugin('acme', ...definitions))
  return app
}

function call(app: Runtime, name: string, args: object) {
  return app.tools.execute({ signal: new AbortController().signal, callId: 'c1', name, arguments: args })
}

describe('mode: repair serves what the MCP boundary serves', () => {
  for (const { name, parameters, call: args } of SHAPES)
    it(`${name}: DSH holds the schema the MCP boundary serves, and a valid call runs the tool`, async () => {
      const app = await session({ mode: 'repair' })
      const mcp = judgeMcpSchema(structuredClone(parameters), 'inputSchema', { policy: 'contract' })
      expect(mcp.kind).toBe('repaired')
      expect(app.tools.get(name)?.parameters).toEqual(mcp.kind === 'repaired' ? mcp.schema : undefined)
      expect(stderr?.text()).toContain(`tool "${name}" from plugin "acme" is sent with repaired parameters`)
      const result = await call(app, name, args)
      expect(result.isError).not.toBe(true)
      expect(app.received).toEqual([args])
    })

  // DSH's own argument check reads its keyword subset (no `anyOf`, no `if`), as for every keyword outside it;
  // `validateArguments` checks the whole declared meaning on a known route.
  it('with validateArguments, the repaired root union still enforces its alternatives: a call matching no branch never runs the tool', async () => {
    const app = await session({ mode: 'repair', validateArguments: true, route: 'deepseek' })
    expect((await call(app, 'root_union', { text: 'b' })).isError).not.toBe(true)
    const result = await call(app, 'root_union', { id: 1 })
    expect(result.isError).toBe(true)
    expect(app.received).toEqual([{ text: 'b' }])
  })
})

describe('the default mode withholds them and offers mode: repair', () => {
  it('each tool is withheld, and its notice says what mode: repair would serve', async () => {
    const app = await session()
    for (const { name } of SHAPES) expect(app.tools.get(name)).toBeUndefined()
    const lines = stderr?.text().trim().split('\n') ?? []
    for (const { name } of SHAPES) {
      const notice = lines.find((line) => line.includes(`tool "${name}" from plugin "acme" is withheld`))
      expect(notice, name).toContain('or set `mode: repair` in the dsh-harden row to serve the tool ')
    }
  })
})
