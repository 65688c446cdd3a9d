import { afterAll, describe, expect, it } from 'vitest'
import { type CheckReport, checkServer } from '../src/index.ts'
import { binOf, nodeTarget, processesLeft, scratchDir } from './servers.ts'

const scratch = scratchDir('dsh-harden-mcp-check-test-')
afterAll(() => scratch.remove())

const REFERENCE = [
  { id: 'everything', bin: binOf('@modelcontextprotocol/server-everything'), args: ['stdio'], tools: 13 },
  { id: 'filesystem', bin: binOf('@modelcontextprotocol/server-filesystem'), args: [scratch.dir], tools: 14 },
  {
    id: 'memory',
    bin: binOf('@modelcontextprotocol/server-memory'),
    args: [],
    env: { MEMORY_FILE_PATH: `${scratch.dir}/memory.jsonl` },
    tools: 9,
  },
  {
    id: 'sequential-thinking',
    bin: binOf('@modelcontextprotocol/server-sequential-thinking'),
    args: [],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
    tools: 1,
  },
]

function statuses(report: CheckReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((check) => [check.id, check.status]))
}

describe('mcp check against the official reference servers', () => {
  for (const server of REFERENCE) {
    it(`${server.id}: conformant, and every real client takes all ${server.tools} tools`, async () => {
      const report = await checkServer(nodeTarget(server.bin, server.args, server.env), { claude: false })
      const failed = report.checks.filter((check) => check.status === 'fail')
      expect(failed.flatMap((check) => check.findings.map((f) => f.message))).toEqual([])
      expect(report.conformant).toBe(true)
      expect(report.tools).toHaveLength(server.tools)
      for (const client of report.clients) {
        expect(client.status, `${client.label}: ${client.detail}`).toBe('accepted')
        expect(client.tools).toBe(server.tools)
      }
      // The unknown-tool probe always runs; read-only tools without arguments are called too.
      expect(report.calls[0]?.tool).toBe('dsh-harden-check-no-such-tool')
      for (const profile of report.profiles) expect(profile.hardened).toEqual([])
      expect(await processesLeft(server.bin)).toEqual([])
    }, 600_000)
  }

  it('server-filesystem@2025.8.21: names the 13 untyped inputSchemas; the SDK and stock DSH lose every tool, hardened DSH keeps all 14', async () => {
    const report = await checkServer(nodeTarget(binOf('server-filesystem-2025'), [scratch.dir]), {
      claude: false,
    })
    expect(statuses(report)).toMatchObject({
      initialize: 'pass',
      'jsonrpc-envelope': 'pass',
      'input-schema': 'fail',
    })
    const input = report.checks.find((check) => check.id === 'input-schema')!
    expect(input.findings.filter((f) => f.severity === 'violation')).toHaveLength(13)
    expect(input.findings[0]).toMatchObject({ tool: 'read_file', pointer: '/inputSchema/type' })
    const clients = Object.fromEntries(report.clients.map((client) => [client.client, client]))
    expect(clients.sdk?.status).toBe('rejected')
    expect(clients.sdk?.detail).toMatch(/at tools\.0\.inputSchema\.type\) \(\+12 more\)/)
    expect(clients['dsh-stock']).toMatchObject({ status: 'rejected', tools: 0 })
    expect(clients['dsh-hardened']).toMatchObject({ status: 'accepted', tools: 14 })
    expect(clients['dsh-intake']).toMatchObject({ status: 'accepted', tools: 14 })
  }, 600_000)
})
