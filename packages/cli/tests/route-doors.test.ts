import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHttpRepair } from '@dsh-harden/mcp-repair'
import { ECHO_SERVER, startEchoHttp } from '@dsh-harden/mcp-repair/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { afterEach, describe, expect, it } from 'vitest'
import { RouteDoor } from '../src/mcp/route-door.ts'
import { BIN, runCli } from './run-cli.ts'

/** A dotted name (refused by every route but gemini), a key with a space (refused by anthropic), an optional field
 * (nullable on openai-strict and codex) and an open object (JSON text on openai-strict). */
const TOOLS = [
  {
    name: 'service.doSomething',
    description: 'a name with a dot',
    inputSchema: {
      type: 'object',
      properties: { 'user name': { type: 'string' }, note: { type: 'string' } },
      required: ['user name'],
    },
  },
  {
    name: 'plain',
    inputSchema: { type: 'object', properties: { payload: { type: 'object' } }, required: ['payload'] },
  },
]

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'route-door-test', version: '1' })
  cleanups.push(() => client.close())
  await client.connect(transport, { timeout: 120_000 })
  return client
}

/** The official SDK client on `dsh-harden <args…>` over stdio, its stderr kept. */
async function cliClient(args: readonly string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return { client: await connect(transport), stderr: () => stderr }
}

const echo = ['--', process.execPath, ECHO_SERVER, JSON.stringify(TOOLS)]

/** What the echo server received: `{ name, arguments }`. */
function received(result: unknown): { name: string; arguments: unknown } {
  const [block] = (result as { content: { type: string; text: string }[] }).content
  return JSON.parse(block!.text) as { name: string; arguments: unknown }
}

describe('mcp repair --route: the overlay projection and renames, calls mapped back (stdio, SDK client)', () => {
  it('anthropic: service.doSomething goes out as service_doSomething, a call to it reaches the server under its own name and keys', async () => {
    const { client, stderr } = await cliClient([
      'mcp',
      'repair',
      '--route',
      'anthropic',
      '--server',
      'echo',
      ...echo,
    ])
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['service_doSomething', 'plain'])
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { user_name: { type: 'string' }, note: { type: 'string' } },
      required: ['user_name'],
    })
    // A tool the route takes as listed keeps every field the server sent.
    expect(tools[1]).toEqual(TOOLS[1])
    const called = await client.callTool({
      name: 'service_doSomething',
      arguments: { user_name: 'ada', note: 'n' },
    })
    expect(received(called)).toEqual({
      name: 'service.doSomething',
      arguments: { 'user name': 'ada', note: 'n' },
    })
    expect(received(await client.callTool({ name: 'plain', arguments: { payload: { a: 1 } } }))).toEqual({
      name: 'plain',
      arguments: { payload: { a: 1 } },
    })
    expect(stderr()).toMatch(
      /served 2 tools for route anthropic: renamed 1 .*service\.doSomething -> service_doSomething/,
    )
  }, 600_000)

  it('openai-strict: a JSON-text slot and a null for "not provided" are read back before the server sees them', async () => {
    const { client } = await cliClient(['mcp', 'repair', '--route', 'openai-strict', ...echo])
    const { tools } = await client.listTools()
    const plain = tools.find((tool) => tool.name === 'plain')!
    expect(plain.inputSchema.properties?.payload).toMatchObject({ type: 'string' })
    expect(received(await client.callTool({ name: 'plain', arguments: { payload: '{"a":[1,2]}' } }))).toEqual(
      {
        name: 'plain',
        arguments: { payload: { a: [1, 2] } },
      },
    )
    const dotted = await client.callTool({
      name: 'service_doSomething',
      arguments: { 'user name': 'ada', note: null },
    })
    expect(received(dotted)).toEqual({ name: 'service.doSomething', arguments: { 'user name': 'ada' } })
  }, 600_000)

  it('a call carrying a renamed key beside its declared key is answered with a tool error naming both, not sent', async () => {
    const { client } = await cliClient(['mcp', 'repair', '--route', 'anthropic', '--server', 'echo', ...echo])
    await client.listTools()
    const result = (await client.callTool({
      name: 'service_doSomething',
      arguments: { user_name: 'ada', 'user name': 'bob' },
    })) as { isError?: boolean; content: { text: string }[] }
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(
      /"service_doSomething" \(tool "service\.doSomething" of "echo", route anthropic\) cannot be read back at \(root\): carries both "user_name" .* and "user name"/,
    )
  }, 600_000)

  it('without --route (the default) every name and schema goes out as the server listed it', async () => {
    const { client } = await cliClient(['mcp', 'repair', ...echo])
    const { tools } = await client.listTools()
    expect(tools).toEqual(TOOLS)
    expect(
      received(await client.callTool({ name: 'service.doSomething', arguments: { 'user name': 'x' } })),
    ).toEqual({
      name: 'service.doSomething',
      arguments: { 'user name': 'x' },
    })
  }, 600_000)

  it('an unknown route is a usage error listing the profiles (exit 2)', async () => {
    const { code, stderr } = await runCli(['mcp', 'repair', '--route', 'gpt-9', ...echo])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--route: unknown route "gpt-9"; pass one of: deepseek, openai, .*anthropic/)
  })
})

describe('the HTTP facade with a route door (Streamable HTTP, SDK client)', () => {
  it('anthropic: wire names on tools/list, the declared name and keys at the server', async () => {
    const upstream = await startEchoHttp(TOOLS)
    cleanups.push(() => upstream.stop())
    const facade = await startHttpRepair({
      upstream: upstream.url,
      log: () => {},
      openRoute: (server) => new RouteDoor('anthropic', server),
    })
    cleanups.push(() => facade.close())
    const client = await connect(new StreamableHTTPClientTransport(new URL(facade.url)))
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['service_doSomething', 'plain'])
    const called = await client.callTool({ name: 'service_doSomething', arguments: { user_name: 'ada' } })
    expect(received(called)).toEqual({ name: 'service.doSomething', arguments: { 'user name': 'ada' } })
    // A call that cannot be read back is answered by the facade itself, as a tool error the model can act on.
    const refused = (await client.callTool({
      name: 'service_doSomething',
      arguments: { user_name: 'ada', 'user name': 'bob' },
    })) as { isError?: boolean; content: { text: string }[] }
    expect(refused.isError).toBe(true)
    expect(refused.content[0]!.text).toMatch(/cannot be read back at \(root\): carries both "user_name"/)
  }, 600_000)
})

describe('mcp gateway --route: the five gateway tools through the same route door', () => {
  function gatewayConfig(): string {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-harden-gateway-route-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'gateway.json')
    writeFileSync(
      file,
      JSON.stringify({
        cachePath: join(dir, 'cache.json'),
        servers: [
          {
            name: 'echo',
            transport: 'stdio',
            command: process.execPath,
            args: [ECHO_SERVER, JSON.stringify(TOOLS)],
          },
        ],
      }),
    )
    return file
  }

  it('openai-strict: mcp_call takes its arguments as JSON text, and the server behind it gets the object', async () => {
    const config = gatewayConfig()
    const [plain, routed] = await Promise.all([
      cliClient(['mcp', 'gateway', '--config', config]),
      cliClient(['mcp', 'gateway', '--config', config, '--route', 'openai-strict']),
    ])
    const declared = (await plain.client.listTools()).tools.find((tool) => tool.name === 'mcp_call')!
    const wire = (await routed.client.listTools()).tools.find((tool) => tool.name === 'mcp_call')!
    expect(declared.inputSchema.properties?.arguments).toMatchObject({ type: 'object' })
    // Optional, so also nullable: null reads back as "not provided".
    expect(wire.inputSchema.properties?.arguments).toMatchObject({ type: ['string', 'null'] })
    expect(wire.inputSchema.additionalProperties).toBe(false)
    const result = (await routed.client.callTool({
      name: 'mcp_call',
      arguments: { server: 'echo', tool: 'service.doSomething', arguments: '{"user name":"ada"}' },
    })) as { isError?: boolean; content: { text: string }[] }
    expect(result.isError, result.content[0]?.text).not.toBe(true)
    expect(result.content[0]!.text).toContain(
      '{"name":"service.doSomething","arguments":{"user name":"ada"}}',
    )
  }, 600_000)
})
