import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createGateway, type GatewayLogger, readGatewayConfigFile } from '../src/index.ts'
import { tempDir } from './servers.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function recordingLogger(): GatewayLogger & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info: () => {}, warn: (line) => warnings.push(line), error: () => {} }
}

async function gatewayWith(servers: unknown[]) {
  const temp = await tempDir()
  cleanups.push(temp.remove)
  const { gateway } = await createGateway(
    { servers, cachePath: join(temp.dir, 'cache.json') },
    { env: { PATH: process.env.PATH }, start: false },
  )
  cleanups.push(() => gateway.dispose())
  return gateway
}

describe('process-level errors say what, where and how to fix', () => {
  it('a command that does not exist: "command not found (spawn ENOENT)", not a blamed server', async () => {
    const gateway = await gatewayWith([{ name: 'ghost', transport: 'stdio', command: '/no/such/server' }])
    await expect(gateway.call('ghost', 'x', {})).rejects.toThrow(
      /ghost.*command not found \(spawn ENOENT\); check its `command` and PATH/s,
    )
  })

  it('a server that exits at once: its exit code and the tail of its stderr', async () => {
    const gateway = await gatewayWith([
      {
        name: 'quits',
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', "console.error('fatal: MEMORY_FILE_PATH is not writable'); process.exit(7)"],
      },
    ])
    const error = await gateway.call('quits', 'x', {}).then(
      () => undefined,
      (caught: Error) => caught,
    )
    expect(error?.message).toMatch(/exited \(code 7\) before it answered/)
    expect(error?.message).toContain('fatal: MEMORY_FILE_PATH is not writable')
  }, 600_000)

  it('a configuration with no servers warns once, naming the file', async () => {
    const temp = await tempDir()
    cleanups.push(temp.remove)
    const file = join(temp.dir, 'gateway.json')
    await writeFile(file, '{}')
    const logger = recordingLogger()
    const { gateway } = await createGateway(await readGatewayConfigFile(file), {
      logger,
      where: file,
      start: false,
      env: {},
    })
    cleanups.push(() => gateway.dispose())
    expect(logger.warnings).toEqual([
      `lazy-mcp: no servers configured in ${file}; add \`mcpServers\` (a map of name → { command | url }), \`servers\` or \`configPaths\``,
    ])
  })

  it('a misspelt key is named, with the key it most likely meant', async () => {
    await expect(
      createGateway({ mcpServers: { fs: { comand: 'npx', args: ['x'] } } }, { start: false, env: {} }),
    ).rejects.toThrow(
      'mcpServers.fs: has neither `command` (stdio) nor `url` (Streamable HTTP): unknown key `comand`; did you mean `command`?',
    )
    await expect(createGateway({ idleDisconectMs: 5000 }, { start: false })).rejects.toThrow(
      'idleDisconectMs: unknown setting; did you mean `idleDisconnectMs`?',
    )
    const temp = await tempDir()
    cleanups.push(temp.remove)
    const file = join(temp.dir, 'typo.json')
    await writeFile(file, JSON.stringify({ mcpServer: {} }))
    await expect(readGatewayConfigFile(file)).rejects.toThrow(
      /unknown key "mcpServer"; did you mean `mcpServers`\?/,
    )
  })
})
