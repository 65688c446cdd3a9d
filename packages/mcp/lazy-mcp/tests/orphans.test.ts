import { execFileSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { LazyMcpGateway, processGroupAlive } from '../src/index.ts'
import { TINY_SERVER, tempDir, tiny, until } from './servers.ts'

/** Every live process whose process group is `pgid` (from ps; empty when the group is gone). */
function groupMembers(pgid: number): string[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,comm='], { encoding: 'utf8' })
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 3 && Number(fields[1]) === pgid)
    .map((fields) => `${fields[0]} ${fields[2]}`)
}

const temps: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const remove of temps) await remove()
})

describe.skipIf(process.platform === 'win32')('process-group release', () => {
  it('no descendant survives 100 start/release cycles of an sh -c wrapped server', {
    timeout: 600_000,
  }, async () => {
    const temp = await tempDir()
    temps.push(temp.remove)
    // sh leads the group, with a background grandchild that ignores stdin and holds the stdio pipes open:
    // killing only the direct child (what the SDK transport does) would leave `sleep` and `node` behind.
    const wrapped = (name: string) =>
      tiny(name, {
        command: '/bin/sh',
        args: ['-c', `sleep 300 & "${process.execPath}" "${TINY_SERVER}"`],
      })
    const names = ['w1', 'w2', 'w3', 'w4']
    const gateway = new LazyMcpGateway({
      servers: names.map(wrapped),
      cachePath: `${temp.dir}/tool-cache.json`,
      idleDisconnectMs: 60_000,
    })
    await gateway.start()
    const groups: number[] = []
    try {
      await Promise.all(
        names.map(async (name) => {
          for (let cycle = 0; cycle < 25; cycle++) {
            expect(await gateway.call(name, 'echo', { text: String(cycle) })).toBe(`echo:${cycle}`)
            const pgid = gateway.detail(name).pid!
            groups.push(pgid)
            await gateway.release(name)
            expect(gateway.detail(name).state).toBe('dormant')
          }
        }),
      )
    } finally {
      await gateway.dispose()
    }
    expect(groups).toHaveLength(100)
    expect(new Set(groups).size).toBe(100)
    for (const pgid of groups) {
      const gone = await until(() => !processGroupAlive(pgid))
      expect(gone, `group ${pgid}: ${groupMembers(pgid).join(', ')}`).toBeGreaterThanOrEqual(0)
    }
    expect(gateway.detail('w1')).toMatchObject({ connections: 25, releases: 25 })
  })

  it('a wrapper that ignores stdin closing is signalled, and its whole group goes', {
    timeout: 600_000,
  }, async () => {
    const temp = await tempDir()
    temps.push(temp.remove)
    const gateway = new LazyMcpGateway({
      servers: [
        tiny('stubborn', {
          command: '/bin/sh',
          args: ['-c', `trap '' HUP; sleep 300 & "${process.execPath}" "${TINY_SERVER}"; wait`],
        }),
      ],
      cachePath: `${temp.dir}/tool-cache.json`,
    })
    await gateway.start()
    await gateway.call('stubborn', 'echo', {})
    const pgid = gateway.detail('stubborn').pid!
    await gateway.release('stubborn')
    await gateway.dispose()
    expect(await until(() => !processGroupAlive(pgid)), groupMembers(pgid).join(', ')).toBeGreaterThanOrEqual(
      0,
    )
  })
})
