import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { dshClientVerdict } from '../src/clients/dsh-client.ts'
import { nodeTarget } from './servers.ts'

// A correct one-tool server (the fixture's `raw-result` mode lists `lookup` as a plain server would).
const ONE_TOOL = nodeTarget(fileURLToPath(new URL('./fixtures/defects-server.mjs', import.meta.url)), [
  'raw-result',
])

describe("DSH's real MCP bridge as an mcp check client", () => {
  it('counts the one tool it registered in the singular', async () => {
    const verdict = await dshClientVerdict(ONE_TOOL, { hardened: false, timeoutMs: 5000 })
    expect(verdict).toMatchObject({ status: 'accepted', tools: 1 })
    expect(verdict.detail).toMatch(/^1 tool registered/)
  }, 600_000)
})
