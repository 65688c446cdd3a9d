import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LazyMcpGateway, SILENT_LOGGER } from '@dsh-harden/lazy-mcp'
import { profileVerdicts } from '@dsh-harden/mcp-check'
import { intakeToolList } from '@dsh-harden/mcp-client'
import { packageBin, SEED000_SERVER } from '@dsh-harden/mcp-client/fixtures'
import { rewriteToolsListText } from '@dsh-harden/mcp-repair'
import { listToolsRaw, REFERENCE_SERVERS, type ServerDescriptor } from '@dsh-harden/testkit/mcp-servers'
import {
  createToolContract,
  type JsonObject,
  judgeMcpToolList,
  type McpToolVerdict,
  PROFILE_IDS,
  type ProfileId,
  profileRules,
  renameAll,
} from '@dsh-harden/tools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sanitizeTools } from '../src/sanitize/sanitize.ts'
import { typedTools } from '../src/types/mcp-source.ts'

/**
 * Agreement: every entry point (the DSH intake, the repair proxy, the gateway, `sanitize`, `types`, `mcp check`, the
 * overlay's contract) gives each tool of a real server the same verdict and, per profile, the same wire schema as the
 * one contract compiler in `@dsh-harden/tools`. The servers are the real reference servers, `@playwright/mcp`,
 * `server-filesystem@2025.8.21` (13 tools with a root of only `$schema`), the seed-000 fixture (FIXTURE: a
 * smart-home facade whose 7 zero-argument tools list `inputSchema: {}`) and a fixture with one tool of every verdict
 * (FIXTURE: `fixtures/mixed-verdicts-server.mjs`; the real servers list nothing the boundary isolates).
 */

const MIXED_VERDICTS_SERVER = fileURLToPath(new URL('./fixtures/mixed-verdicts-server.mjs', import.meta.url))

function extraServer(id: string, binPath: string, args: (workDir: string) => string[]): ServerDescriptor {
  return {
    id,
    packageName: id,
    packageVersion: 'fixture',
    binPath,
    launch: (workDir) => ({ args: args(workDir) }),
  }
}

const SERVERS: readonly ServerDescriptor[] = [
  ...REFERENCE_SERVERS,
  extraServer('filesystem-2025', packageBin('server-filesystem-2025'), (workDir) => [workDir]),
  extraServer('seed000', SEED000_SERVER, () => []),
  extraServer('mixed-verdicts', MIXED_VERDICTS_SERVER, () => []),
]

interface Listed {
  readonly server: ServerDescriptor
  readonly raw: readonly unknown[]
  /** The gateway's tools/list of the same server, spoken to over stdio by the real `LazyMcpGateway`. */
  readonly gateway: { readonly tools: readonly Record<string, unknown>[]; readonly isolated: number }
}

const listed = new Map<string, Listed>()
let scratch = ''

async function throughGateway(server: ServerDescriptor): Promise<Listed['gateway']> {
  const workDir = await mkdtemp(join(scratch, `${server.id}-`))
  const launch = await server.launch(workDir)
  const gateway = new LazyMcpGateway({
    servers: [
      {
        name: server.id,
        transport: 'stdio',
        lifecycle: 'lazy',
        command: process.execPath,
        args: [server.binPath, ...launch.args],
        env: { ...launch.env },
        cwd: workDir,
      },
    ],
    cachePath: join(workDir, 'cache', 'tool-cache.json'),
    connectTimeoutMs: 20_000,
    logger: SILENT_LOGGER,
  })
  try {
    const listing = await gateway.listTools(server.id, { refresh: true })
    if (listing === undefined) throw new Error(`the gateway listed nothing for ${server.id}`)
    const isolated = listing.diagnostics.filter((d) => d.effect === 'isolated').length
    return { tools: listing.tools as readonly Record<string, unknown>[], isolated }
  } finally {
    await gateway.dispose()
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'dsh-harden-agreement-'))
  for (const server of SERVERS) {
    const raw = (await listToolsRaw(server, { timeoutMs: 30_000 })).rawTools
    listed.set(server.id, { server, raw, gateway: await throughGateway(server) })
  }
}, 600_000)

afterAll(async () => {
  if (scratch !== '') await rm(scratch, { recursive: true, force: true })
})

function entry(id: string): Listed {
  const found = listed.get(id)
  if (found === undefined) throw new Error(`${id} was not listed`)
  return found
}

function served(verdicts: readonly McpToolVerdict[]): Map<string, McpToolVerdict> {
  return new Map(verdicts.filter((v) => v.tool !== undefined).map((v) => [v.name, v]))
}

function names(tools: readonly unknown[]): string[] {
  return tools.map((tool) => (tool as { name: string }).name)
}

describe('one contract compiler: every entry point agrees on real servers', () => {
  for (const server of SERVERS) {
    describe(server.id, () => {
      it('served tools and their schemas: the gateway, types and the proxy-fronted intake match the core', () => {
        const { raw, gateway } = entry(server.id)
        const core = served(judgeMcpToolList(raw))
        expect(core.size, 'the core serves at least one tool').toBeGreaterThan(0)
        // The gateway (real LazyMcpGateway over stdio).
        expect(names(gateway.tools)).toEqual([...core.keys()])
        expect(gateway.isolated).toBe(raw.length - core.size)
        for (const tool of gateway.tools)
          expect(tool.inputSchema).toEqual(core.get(tool.name as string)?.tool?.inputSchema)
        // `types --mcp`: typed from the very schema the core serves, `unknown` exactly where the core isolates.
        const typed = typedTools(raw, [])
        expect(typed.filter((t) => t.violations.length === 0).map((t) => t.name)).toEqual([...core.keys()])
        for (const tool of typed.filter((t) => t.violations.length === 0))
          expect(tool.parameters).toEqual(core.get(tool.name)?.tool?.inputSchema)
        // The repair proxy (`spec` policy) serves every tool the core serves, and DSH behind it decides the same.
        const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: raw } })
        const proxied = (
          JSON.parse(rewriteToolsListText(text, JSON.parse(text), () => true, server.id).text) as {
            result: { tools: unknown[] }
          }
        ).result.tools
        expect(names(proxied)).toEqual(expect.arrayContaining([...core.keys()]))
        const behindProxy = served(judgeMcpToolList(proxied))
        expect([...behindProxy.keys()]).toEqual([...core.keys()])
        for (const [name, verdict] of behindProxy)
          expect(verdict.tool?.inputSchema).toEqual(core.get(name)?.tool?.inputSchema)
      })

      it('per profile: the intake, sanitize, mcp check and the overlay give the same verdict and wire schema', () => {
        const { raw } = entry(server.id)
        const routes = profileVerdicts(raw as readonly Record<string, unknown>[])
        for (const profile of PROFILE_IDS) {
          const core = served(judgeMcpToolList(raw, { profile }))
          const wire = (name: string) => core.get(name)?.projection?.input.wire
          const where = `${server.id} ${profile}`
          // The DSH intake (`@dsh-harden/mcp-client`), including the SDK as outside judge.
          const intake = intakeToolList(raw, { server: server.id, profile })
          expect(names(intake.tools), where).toEqual([...core.keys()])
          for (const projection of intake.projections ?? [])
            expect(projection.input.wire, where).toEqual(wire(projection.tool))
          // `dsh-harden sanitize`.
          const sanitized = sanitizeTools(raw, { profile, repair: true })
          const kept = sanitized.report.filter((v) => v.status !== 'rejected').map((v) => v.name)
          expect(kept, where).toEqual([...core.keys()])
          // Under the wire name the overlay gives it (`renameAll` with the route's `toolNames`), if the route refuses it.
          const renames = renameAll(kept, profileRules(profile).toolNames)
          for (const [index, tool] of (
            sanitized.tools as { name: string; inputSchema: unknown }[]
          ).entries()) {
            const declared = kept[index]!
            expect(tool.name, where).toBe(renames?.toWire.get(declared) ?? declared)
            expect(tool.inputSchema, `${where} ${declared}`).toEqual(wire(declared))
          }
          // `dsh-harden mcp check`: the hardened leg isolates exactly what the core isolates.
          const route = routes.find((r) => r.profile === profile)!
          expect(route.hardened.map((r) => r.tool).sort(), where).toEqual(
            names(raw)
              .filter((name) => !core.has(name))
              .sort(),
          )
          // The overlay (strict author boundary) takes every served schema and projects it identically.
          for (const [name, verdict] of core) {
            const contract = createToolContract(verdict.tool?.inputSchema, { tool: name, source: server.id })
            expect(contract.projection(profile as ProfileId).wire, `${where} ${name}`).toEqual(
              wire(name) as JsonObject,
            )
          }
        }
      })
    })
  }

  it('server-filesystem@2025.8.21: all 14 tools are served by every entry point (13 repaired roots of only $schema)', () => {
    const { raw, gateway } = entry('filesystem-2025')
    expect(raw).toHaveLength(14)
    const verdicts = judgeMcpToolList(raw, { profile: 'deepseek' })
    expect(verdicts.filter((v) => v.status === 'repaired')).toHaveLength(13)
    expect(verdicts.every((v) => v.status !== 'isolated')).toBe(true)
    expect(gateway.tools).toHaveLength(14)
    for (const profile of PROFILE_IDS)
      expect(sanitizeTools(raw, { profile, repair: true }).tools, profile).toHaveLength(14)
  })

  it('mixed verdicts: isolated, repaired and output-dropped tools are the same for every entry point', () => {
    const { raw, gateway } = entry('mixed-verdicts')
    const verdicts = judgeMcpToolList(raw, { profile: 'openai-strict' })
    expect(verdicts.map((v) => [v.name, v.status])).toEqual([
      ['echo', 'accepted'],
      ['empty', 'repaired'],
      ['schema_only', 'repaired'],
      ['required_null', 'repaired'],
      ['boolean_property', 'repaired'],
      // A root union of object schemas is served as one object root with the same meaning (issue 16).
      ['root_union', 'repaired'],
      ['root_type_list', 'isolated'],
      ['twice', 'isolated'],
      ['twice', 'isolated'],
      ['bad_output', 'repaired'],
      ['any_json', 'accepted'],
    ])
    expect(verdicts.find((v) => v.name === 'bad_output')?.problems).toEqual([
      expect.objectContaining({ schema: 'outputSchema', effect: 'output-unchecked' }),
    ])
    expect(gateway.isolated).toBe(3)
    const sanitized = sanitizeTools(raw, { profile: 'openai-strict', repair: true })
    const anyJson = sanitized.report.find((v) => v.name === 'any_json')
    expect(anyJson?.changes.filter((c) => c.needsDecoder !== undefined).map((c) => c.action)).toContain(
      'encoded-json',
    )
  })

  it('seed 000: the 7 `inputSchema: {}` tools are repaired everywhere, all 76 served', () => {
    const { raw, gateway } = entry('seed000')
    expect(raw).toHaveLength(76)
    expect(judgeMcpToolList(raw).filter((v) => v.status === 'repaired')).toHaveLength(7)
    expect(gateway.tools).toHaveLength(76)
    expect(sanitizeTools(raw, { profile: 'openai-strict', repair: true }).tools).toHaveLength(76)
  })
})
