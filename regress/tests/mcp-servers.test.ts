import {
  isProcessAlive,
  listServerTools,
  listToolsRaw,
  loadReferenceCorpus,
  McpServerListError,
  REFERENCE_SERVERS,
  type ReferenceCorpus,
  referenceServer,
  type ServerToolList,
  waitForExit,
} from '@dsh-harden/testkit/mcp-servers'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatBaselineTable, stockBaseline } from '../src/mcp-stock-baseline.ts'

const shorten = (violation: string): string => violation.replace(/ \(subset: .*\)$/, '')

let sdkCorpus: ReferenceCorpus
let rawCorpus: ReferenceCorpus

function listOf(corpus: ReferenceCorpus, server: string): ServerToolList {
  const entry = corpus.entries.find((candidate) => candidate.server === server)
  if (!entry?.ok || !entry.list) throw entry?.error ?? new Error(`${server} missing from corpus`)
  return entry.list
}

beforeAll(async () => {
  sdkCorpus = await loadReferenceCorpus()
  rawCorpus = await loadReferenceCorpus({ raw: true })
  console.log(
    `reference corpus loaded: SDK client ${sdkCorpus.elapsedMs} ms, raw JSON-RPC ${rawCorpus.elapsedMs} ms ` +
      `(${REFERENCE_SERVERS.length} servers, concurrency 2)`,
  )
}, 600_000)

describe('reference MCP servers over real stdio', () => {
  for (const server of REFERENCE_SERVERS) {
    describe(`${server.id} (${server.packageName}@${server.packageVersion})`, () => {
      it('lists > 0 tools via the SDK client and via raw JSON-RPC, with the same names', () => {
        const sdk = listOf(sdkCorpus, server.id)
        const raw = listOf(rawCorpus, server.id)
        expect(sdk.tools.length).toBeGreaterThan(0)
        expect(raw.tools.length).toBeGreaterThan(0)
        expect(sdk.tools.map((tool) => tool.name)).toEqual(raw.tools.map((tool) => tool.name))
        expect(sdk.version).toBe(raw.version)
      })

      it('gives every tool an inputSchema object', () => {
        for (const list of [listOf(sdkCorpus, server.id), listOf(rawCorpus, server.id)]) {
          for (const tool of list.tools) {
            expect(tool.inputSchema, `${server.id}/${tool.name}`).toBeTypeOf('object')
            expect(tool.inputSchema).not.toBeNull()
            expect(Array.isArray(tool.inputSchema)).toBe(false)
          }
        }
      })

      it('leaves no child process behind after close', async () => {
        for (const list of [listOf(sdkCorpus, server.id), listOf(rawCorpus, server.id)]) {
          expect(list.pid).toBeTypeOf('number')
          expect(await waitForExit(list.pid!, 5000)).toBe(true)
          expect(isProcessAlive(list.pid!)).toBe(false)
        }
      })
    })
  }
})

describe('timeouts and failures', () => {
  it('closes the child even when the run times out', async () => {
    const server = referenceServer('sequential-thinking')
    // A node child that never answers: `node -e <code>`, which also ignores stdin EOF.
    const silent = { ...server, binPath: '-e', launch: () => ({ args: ['setInterval(() => {}, 1000)'] }) }
    for (const list of [listServerTools, listToolsRaw]) {
      const error = await list(silent, { timeoutMs: 800 }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(McpServerListError)
      const failure = error as McpServerListError
      expect(failure.message).toMatch(/timed out/i)
      expect(failure.pid).toBeTypeOf('number')
      expect(isProcessAlive(failure.pid!)).toBe(false)
    }
  }, 600_000)
})

describe('stock DSH baseline (seed 001): assertSupportedJsonSchema on each inputSchema', () => {
  it('records pass/fail per server', () => {
    // The raw lists are exactly what the servers sent (and still exist when the SDK rejects a list).
    const rows = REFERENCE_SERVERS.map((server) => stockBaseline(listOf(rawCorpus, server.id)))
    console.log(`\nstock assertSupportedJsonSchema(inputSchema) baseline\n${formatBaselineTable(rows)}\n`)
    for (const row of rows) {
      const failing = row.verdicts.filter((verdict) => !verdict.ok)
      if (failing.length > 0)
        console.log(
          `${row.server} failing tools:\n${failing
            .map((verdict) => `  ${verdict.tool}: ${verdict.violations.map(shorten).join(' | ')}`)
            .join('\n')}`,
        )
      expect(row.pass + row.fail).toBe(row.tools)
    }
    // SDK and raw lists must give the same verdicts.
    for (const server of REFERENCE_SERVERS) {
      expect(stockBaseline(listOf(sdkCorpus, server.id)).pass).toBe(
        rows.find((row) => row.server === server.id)!.pass,
      )
    }
  })
})
