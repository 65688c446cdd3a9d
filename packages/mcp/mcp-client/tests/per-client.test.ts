import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { SEED000_SERVER } from '../fixtures/index.ts'
import { type IntakeEvent, installTolerantIntakeOn, loadMcpSdk } from '../src/index.ts'

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A real SDK client on the seed 000 fixture server (7 tools with `inputSchema: {}`), over stdio. */
async function client(): Promise<Client> {
  const connected = new Client({ name: 'dsh-mcp-client', version: '1' })
  await connected.connect(new StdioClientTransport({ command: process.execPath, args: [SEED000_SERVER] }))
  cleanups.push(() => connected.close())
  return connected
}

function recorder() {
  const events: IntakeEvent[] = []
  return { events, onIntake: (event: IntakeEvent) => events.push(event) }
}

describe('tolerant intake options belong to the client they were installed for', () => {
  it('a later installation does not take over an earlier client; each client keeps its own options', async () => {
    const sdk = await loadMcpSdk()
    expect(sdk.Client).toBe(Client)
    const first = recorder()
    const uninstallFirst = installTolerantIntakeOn(sdk, { onIntake: first.onIntake })
    cleanups.push(uninstallFirst)
    const a = await client()
    await a.listTools()

    const second = recorder()
    cleanups.push(installTolerantIntakeOn(sdk, { onIntake: second.onIntake, profile: 'deepseek' }))
    const b = await client()
    await b.listTools()
    await a.listTools()

    // a's two pages went to the first installation, b's to the second; only b's tools carry projections.
    expect(first.events).toHaveLength(2)
    expect(second.events).toHaveLength(1)
    expect(first.events.every((event) => event.result.tools.length === 76)).toBe(true)
    expect(first.events[0]!.result.projections).toBeUndefined()
    expect(second.events[0]!.result.projections).toBeDefined()
  }, 600_000)

  it('a scoped installation (one DSH mcp-client row) covers only the clients created in its run()', async () => {
    const sdk = await loadMcpSdk()
    const global = recorder()
    const row = recorder()
    cleanups.push(installTolerantIntakeOn(sdk, { onIntake: global.onIntake }))
    const scoped = installTolerantIntakeOn(sdk, { onIntake: row.onIntake, scoped: true })
    cleanups.push(scoped)
    const inside = await scoped.run('row-server', async () => {
      const created = await client()
      await created.listTools()
      return created
    })
    const outside = await client()
    await outside.listTools()
    // Later requests of the row's client, outside run(), still belong to the row.
    await inside.listTools()
    expect(row.events.map((event) => event.server)).toEqual(['row-server', 'row-server'])
    expect(global.events).toHaveLength(1)
    expect(global.events[0]!.server).toMatch(/^stdio:/)
  }, 600_000)

  it('when a client’s installation is removed, it falls back to the remaining one', async () => {
    const sdk = await loadMcpSdk()
    const first = recorder()
    const second = recorder()
    cleanups.push(installTolerantIntakeOn(sdk, { onIntake: first.onIntake }))
    const a = await client()
    await a.listTools()
    const later = installTolerantIntakeOn(sdk, { onIntake: second.onIntake })
    later()
    await a.listTools()
    expect([first.events.length, second.events.length]).toEqual([2, 0])
  }, 600_000)
})
