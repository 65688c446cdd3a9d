import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { CACHE_VERSION, fingerprint, LazyMcpGateway, MetadataCache } from '../src/index.ts'
import { everything, sleep, tempDir } from './servers.ts'

const temps: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const remove of temps) await remove()
})
async function dir(): Promise<string> {
  const temp = await tempDir()
  temps.push(temp.remove)
  return temp.dir
}

describe('metadata cache', () => {
  it('missing, unreadable, malformed or wrong-version caches are never an error', async () => {
    const base = await dir()
    for (const content of [
      undefined,
      '{ not json',
      '[]',
      '{"version":99,"servers":{}}',
      '{"version":1,"servers":{"a":{"tools":3}}}',
    ]) {
      const path = join(base, `c-${Math.random()}.json`)
      if (content !== undefined) await writeFile(path, content)
      const cache = new MetadataCache(path)
      await cache.load()
      expect(cache.get('a', 'x')).toBeUndefined()
    }
    const cache = new MetadataCache(join(base, 'no-such-dir', 'deeper', 'c.json'))
    await cache.load()
    await cache.put('a', { fingerprint: 'f', savedAt: 1, tools: [{ name: 't' }] })
    const reread = new MetadataCache(cache.path)
    await reread.load()
    expect(reread.get('a', 'f')?.tools).toEqual([{ name: 't' }])
    expect(reread.get('a', 'other-fingerprint')).toBeUndefined()
  })

  it('round trip on a real server: a new gateway serves mcp_tools from cache with no reconnect', {
    timeout: 600_000,
  }, async () => {
    const cachePath = join(await dir(), 'lazy-mcp', 'tool-cache.json')
    const first = new LazyMcpGateway({ servers: [everything()], cachePath })
    await first.start()
    const live = await first.listTools('everything', { refresh: true })
    expect(live?.source).toBe('live')
    expect(first.detail('everything').connections).toBe(1)
    await first.dispose()
    const file = JSON.parse(await readFile(cachePath, 'utf8'))
    expect(file.version).toBe(CACHE_VERSION)
    expect(file.servers.everything.fingerprint).toBe(fingerprint(everything()))
    expect(JSON.stringify(file)).not.toContain('"env"') // only tool metadata, never env values

    const second = new LazyMcpGateway({ servers: [everything()], cachePath })
    await second.start()
    const cached = await second.listTools('everything')
    expect(cached?.source).toBe('cache')
    expect(cached?.tools.map((tool) => tool.name)).toEqual(live?.tools.map((tool) => tool.name))
    expect(second.detail('everything')).toMatchObject({ state: 'dormant', attempts: 0, connections: 0 })
    expect(second.servers()).toContain(`tools=${live?.tools.length}(cache)`)
    const search = second.search('echo')
    expect(search.hits[0]).toMatchObject({ server: 'everything', source: 'cache' })
    expect(second.detail('everything').attempts).toBe(0)

    // A reconfigured server (another argument) cannot be described by the old entry.
    const third = new LazyMcpGateway({
      servers: [everything('everything', { args: [everything().args[0]!, 'stdio', '--x'] })],
      cachePath,
    })
    await third.start()
    expect(await third.listTools('everything')).toBeUndefined()
    await Promise.all([second.dispose(), third.dispose()])
  })

  it('after an idle release the record falls back to the cache (or memory until the write lands)', {
    timeout: 600_000,
  }, async () => {
    const cachePath = join(await dir(), 'tool-cache.json')
    const gateway = new LazyMcpGateway({ servers: [everything()], cachePath, idleDisconnectMs: 1000 })
    await gateway.start()
    await gateway.call('everything', 'echo', { message: 'x' })
    expect(gateway.detail('everything').tools.source).toBe('live')
    await gateway.release('everything')
    await gateway.cache.flush()
    expect(gateway.detail('everything').tools.source).toBe('cache')
    const listing = await gateway.listTools('everything')
    expect(listing?.source).toBe('cache')
    expect(gateway.detail('everything')).toMatchObject({ state: 'dormant', connections: 1, attempts: 1 })
    await gateway.dispose()
  })

  it('the cache file stays intact when the writing process is killed mid-write', {
    timeout: 600_000,
  }, async () => {
    const base = await dir()
    const path = join(base, 'tool-cache.json')
    const src = fileURLToPath(new URL('../src/cache.ts', import.meta.url))
    // A writer that rewrites a ~1 MB cache as fast as it can, until it is SIGKILLed.
    const script = `
      import { MetadataCache } from ${JSON.stringify(src)}
      const cache = new MetadataCache(${JSON.stringify(path)})
      await cache.load()
      const tools = Array.from({ length: 2000 }, (_, i) => ({ name: 'tool' + i, description: 'x'.repeat(400), inputSchema: { type: 'object', properties: {} } }))
      process.stdout.write('ready\\n')
      for (let n = 0; ; n++) await cache.put('s' + (n % 3), { fingerprint: 'f' + n, savedAt: n, tools })
    `
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      await new Promise<void>((done) => child.stdout.once('data', () => done()))
      await sleep(80 + Math.floor(Math.random() * 250))
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      child.kill('SIGKILL')
      await exited
      const text = await readFile(path, 'utf8').catch(() => undefined)
      if (text === undefined) continue // killed before the first rename: absent, never partial
      const parsed = JSON.parse(text)
      expect(parsed.version).toBe(CACHE_VERSION)
      const cache = new MetadataCache(path)
      await cache.load()
      expect(cache.entries().size).toBeGreaterThan(0)
    }
    expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(CACHE_VERSION)
  })
})
