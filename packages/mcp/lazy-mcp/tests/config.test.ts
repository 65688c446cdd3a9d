import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CANARY_MARK, ORDINARY_ENV, SECRET_CANARIES } from '@dsh-harden/mcp-transport/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import {
  childEnv,
  createGateway,
  expandVars,
  fingerprint,
  type ImportContext,
  LazyMcpConfigError,
  parseConfig,
  resolveCachePath,
  resolveServers,
  type ServerConfig,
} from '../src/index.ts'
import { tempDir, tiny } from './servers.ts'

function configError(work: () => unknown): LazyMcpConfigError {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(LazyMcpConfigError)
    return error as LazyMcpConfigError
  }
  throw new Error('expected a LazyMcpConfigError')
}

async function configErrorAsync(work: () => Promise<unknown>): Promise<LazyMcpConfigError> {
  try {
    await work()
  } catch (error) {
    expect(error).toBeInstanceOf(LazyMcpConfigError)
    return error as LazyMcpConfigError
  }
  throw new Error('expected a LazyMcpConfigError')
}

describe('native configuration', () => {
  it('accepts the documented shape and fills defaults', () => {
    const config = parseConfig({
      idleDisconnectMs: 120_000,
      servers: [
        { name: 'docs', transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: '1' }, cwd: '/tmp' },
        { name: 'kb', transport: 'streamable-http', url: 'https://mcp.example.com/rpc', lifecycle: 'eager' },
      ],
    })
    expect(config.servers?.[0]).toMatchObject({ lifecycle: 'lazy', args: ['-y', 'x'] })
    expect(config.servers?.[1]).toMatchObject({ lifecycle: 'eager', headers: {} })
  })

  it.each([
    [{ servers: [{ name: 'x', transport: 'stdio' }] }, 'servers[0].command'],
    [{ servers: [{ name: 'bad name!', transport: 'stdio', command: 'a' }] }, 'servers[0].name'],
    [
      { servers: [{ name: 'x', transport: 'stdio', command: 'a', lifecycle: 'sometimes' }] },
      'servers[0].lifecycle',
    ],
    [{ servers: [{ name: 'x', transport: 'sse', url: 'http://a' }] }, 'servers[0].transport'],
    [{ servers: [{ name: 'x', transport: 'streamable-http', url: 'ftp://a' }] }, 'servers[0].url'],
    [{ servers: [{ name: 'x', transport: 'stdio', command: 'a', args: ['ok', 3] }] }, 'servers[0].args[1]'],
    [{ servers: [{ name: 'x', transport: 'stdio', command: 'a', env: { K: 1 } }] }, 'servers[0].env.K'],
    [
      { servers: [{ name: 'x', transport: 'stdio', command: 'a', idleDisconnectMs: 5 }] },
      'servers[0].idleDisconnectMs',
    ],
    [
      {
        servers: [
          { name: 'x', transport: 'stdio', command: 'a' },
          { name: 'x', transport: 'stdio', command: 'b' },
        ],
      },
      'servers[1].name',
    ],
    [{ idleDisconectMs: 1000 }, 'idleDisconectMs'],
    [{ overrides: { x: { lifecycle: 'never' } } }, 'overrides.x.lifecycle'],
    [{ statusListen: 'localhost' }, 'statusListen'],
  ])('an invalid configuration names the exact path (%#)', (raw, path) => {
    const error = configError(() => parseConfig(raw))
    expect(error.path).toBe(path)
    expect(error.message).toContain(path)
  })
})

describe('import of standard mcpServers files', () => {
  const temps: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const remove of temps) await remove()
  })

  async function context(files: Record<string, unknown>): Promise<ImportContext & { dir: string }> {
    const temp = await tempDir()
    temps.push(temp.remove)
    const home = join(temp.dir, 'home')
    await mkdir(join(home, '.config', 'mcp'), { recursive: true })
    for (const [name, content] of Object.entries(files))
      await writeFile(
        join(temp.dir, name.replace(/^~/, 'home')),
        typeof content === 'string' ? content : JSON.stringify(content),
      )
    return { env: { PROJECT: '/srv/project', API_TOKEN: 'tok-123' }, home, cwd: temp.dir, dir: temp.dir }
  }

  const byName = (servers: readonly ServerConfig[]) =>
    Object.fromEntries(servers.map((server) => [server.name, server]))

  it('translates Claude Code, Cursor, .mcp.json and Pi entries, with the documented precedence', async () => {
    const ctx = await context({
      '~/.config/mcp/mcp.json': {
        mcpServers: {
          shared: { command: 'pi-shared', lifecycle: 'keep-alive', idleTimeout: 5, directTools: true },
          both: { command: 'from-pi' },
        },
      },
      'claude.json': {
        numStartups: 3,
        mcpServers: {
          both: {
            type: 'stdio',
            command: 'from-claude',
            args: ['--root', `\${PROJECT}/src`],
            env: { T: '$API_TOKEN' },
          },
          remote: {
            type: 'http',
            url: `https://mcp.example.com/\${PROJECT}`,
            headers: { Authorization: `Bearer \${API_TOKEN}` },
          },
          unknownVar: { command: 'x', args: [`\${NOT_SET}`, '$ALSO_NOT'] },
          off: { command: 'x', disabled: true },
        },
      },
      '.mcp.json': {
        mcpServers: { cursorish: { url: 'http://127.0.0.1:9/mcp' }, off2: { command: 'y', enabled: false } },
      },
    })
    const { servers, warnings } = await resolveServers(
      {
        configPaths: ['~/.config/mcp/mcp.json', 'claude.json', '.mcp.json', 'missing.json'],
        mcpServers: { inline: { command: 'inline-cmd' }, remote: { url: 'https://inline.example.com/mcp' } },
        servers: [
          { name: 'inline', transport: 'stdio', lifecycle: 'eager', command: 'native', args: [], env: {} },
        ],
        overrides: {
          shared: { description: 'Shared one', lifecycle: 'lazy-keep-alive' },
          cursorish: { disabled: true },
          ghost: { description: 'matches nothing' },
        },
      },
      ctx,
    )
    const named = byName(servers)
    expect(Object.keys(named).sort()).toEqual(['both', 'inline', 'remote', 'shared', 'unknownVar'])
    // Later sources win: claude.json over the Pi file, inline mcpServers over files, native servers over both.
    expect(named.both).toMatchObject({
      command: 'from-claude',
      args: ['--root', '/srv/project/src'],
      env: { T: 'tok-123' },
    })
    expect(named.remote).toMatchObject({
      transport: 'streamable-http',
      url: 'https://inline.example.com/mcp',
    })
    expect(named.inline).toMatchObject({ command: 'native', lifecycle: 'eager' })
    // Pi minutes → ms; overrides patch single fields.
    expect(named.shared).toMatchObject({
      idleDisconnectMs: 300_000,
      lifecycle: 'lazy-keep-alive',
      description: 'Shared one',
    })
    // Unknown variables stay literal so the mistake stays visible.
    expect(named.unknownVar).toMatchObject({ args: [`\${NOT_SET}`, '$ALSO_NOT'] })
    expect(
      warnings.some((warning) => warning.includes('missing.json') && warning.includes('does not exist')),
    ).toBe(true)
    expect(warnings.some((warning) => warning.includes('overrides.ghost'))).toBe(true)
    expect(warnings.some((warning) => warning.includes('directTools'))).toBe(true)
    expect(warnings.join('\n')).not.toContain('tok-123') // values never logged
  })

  it('broken is loud: malformed JSON, an entry with neither command nor url, a bad name, SSE', async () => {
    const ctx = await context({
      'bad.json': '{ "mcpServers": { ',
      'nocmd.json': { mcpServers: { x: { args: ['a'] } } },
      'badname.json': { mcpServers: { 'has space': { command: 'a' } } },
      'sse.json': { mcpServers: { s: { type: 'sse', url: 'http://a/sse' } } },
    })
    expect(
      (await configErrorAsync(() => resolveServers({ configPaths: ['bad.json'] }, ctx))).message,
    ).toContain('is not valid JSON')
    expect((await configErrorAsync(() => resolveServers({ configPaths: ['nocmd.json'] }, ctx))).path).toMatch(
      /nocmd\.json: mcpServers\.x$/,
    )
    expect(
      (await configErrorAsync(() => resolveServers({ configPaths: ['badname.json'] }, ctx))).path,
    ).toMatch(/badname\.json: mcpServers\.has space$/)
    expect(
      (await configErrorAsync(() => resolveServers({ configPaths: ['sse.json'] }, ctx))).message,
    ).toContain('SSE is not supported')
  })

  it('Pi idleTimeout 0 keeps the server once started', async () => {
    const ctx = await context({})
    const { servers } = await resolveServers({ mcpServers: { p: { command: 'a', idleTimeout: 0 } } }, ctx)
    expect(servers[0]?.lifecycle).toBe('lazy-keep-alive')
  })

  it('an invalid configuration fails activation before anything starts', async () => {
    await expect(createGateway({ servers: [{ name: 'x', transport: 'stdio' }] })).rejects.toThrow(
      /servers\[0\]\.command/,
    )
  })

  it('expandVars leaves unknown names literally in place', () => {
    expect(expandVars(`\${A}-$A-\${B}-$B-$$`, { A: 'a' })).toBe(`a-a-\${B}-$B-$$`)
  })
})

describe('environment allow-list', () => {
  it('a real gateway-started server sees the default names, passEnv and its own env, and no canary', async () => {
    const parentEnv = { ...SECRET_CANARIES, ...ORDINARY_ENV, PATH: process.env.PATH }
    const { gateway } = await createGateway(
      {
        passEnv: ['LANG'],
        servers: [{ ...tiny('canary'), passEnv: ['KUBECONFIG'], env: { OWN: 'yes' } }],
      },
      { env: parentEnv, home: '/home/u', start: false },
    )
    try {
      const seen = JSON.parse(await gateway.call('canary', 'env', { name: '*' })) as Record<string, string>
      expect(JSON.stringify(seen).replace(SECRET_CANARIES.KUBECONFIG!, '')).not.toContain(CANARY_MARK)
      expect(seen).toMatchObject({
        HOME: '/home/u',
        LANG: 'C.UTF-8',
        OWN: 'yes',
        KUBECONFIG: SECRET_CANARIES.KUBECONFIG,
      })
      for (const name of Object.keys(SECRET_CANARIES))
        if (name !== 'KUBECONFIG') expect(seen, name).not.toHaveProperty(name)
    } finally {
      await gateway.dispose()
    }
  }, 600_000)

  it('imported entries keep their pass-through lists (passEnv, Codex env_vars); env values stay verbatim', async () => {
    const { servers } = await resolveServers(
      {
        mcpServers: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, not a JS template
          a: { command: 'x', passEnv: ['KUBECONFIG'], env: { A: '${HOME}' } },
          b: { command: 'y', env_vars: ['GH_TOKEN'] },
        },
      },
      { env: { HOME: '/h' }, home: '/h', cwd: '/' },
    )
    expect(servers).toMatchObject([
      { name: 'a', passEnv: ['KUBECONFIG'], env: { A: '/h' } },
      { name: 'b', passEnv: ['GH_TOKEN'] },
    ])
    await expect(
      resolveServers(
        { mcpServers: { c: { command: 'z', env_vars: ['A-B'] } } },
        { env: {}, home: '/', cwd: '/' },
      ),
    ).rejects.toThrow(/mcpServers\.c\.env_vars\[0\].*environment variable name/)
  })

  it('childEnv: the same allow-list for every server; passEnv entries must be names', () => {
    expect(childEnv({ ...SECRET_CANARIES, HOME: '/h' }, { A: '1' })).toEqual({ HOME: '/h', A: '1' })
    expect(() => parseConfig({ passEnv: ['AWS_*'] })).toThrow(/passEnv\[0\].*environment variable name/)
  })
})

describe('cache key and path', () => {
  const base: ServerConfig = {
    name: 'a',
    transport: 'stdio',
    lifecycle: 'lazy',
    command: 'c',
    args: ['x'],
    env: { K: 'v1' },
  }

  it('changes with transport, command, args, cwd, url and the env key set, never with env values', () => {
    const print = fingerprint(base)
    expect(fingerprint({ ...base, env: { K: 'v2' } })).toBe(print)
    expect(fingerprint({ ...base, lifecycle: 'eager', description: 'd' })).toBe(print)
    for (const changed of [
      { ...base, command: 'd' },
      { ...base, args: ['y'] },
      { ...base, cwd: '/w' },
      { ...base, env: { K: 'v1', L: 'x' } },
    ])
      expect(fingerprint(changed)).not.toBe(print)
    const http = {
      name: 'a',
      transport: 'streamable-http',
      lifecycle: 'lazy',
      url: 'http://a/mcp',
      headers: {},
    } as const
    expect(fingerprint(http)).not.toBe(print)
    expect(fingerprint({ ...http, url: 'http://b/mcp' })).not.toBe(fingerprint(http))
  })

  it('never trusts DSH_ variables the Host may lack: falls back to ~/.dsh', () => {
    expect(resolveCachePath(undefined, {}, '/home/u')).toBe('/home/u/.dsh/lazy-mcp/tool-cache.json')
    expect(resolveCachePath(undefined, { DSH_PROFILE_DIR: '' }, '/home/u')).toBe(
      '/home/u/.dsh/lazy-mcp/tool-cache.json',
    )
    expect(resolveCachePath(undefined, { DSH_PROFILE_DIR: '/p/web' }, '/home/u')).toBe(
      '/p/web/lazy-mcp/tool-cache.json',
    )
    expect(resolveCachePath('/x/c.json', { DSH_PROFILE_DIR: '/p' }, '/home/u')).toBe('/x/c.json')
  })

  it('createGateway without DSH_PROFILE_DIR or DSH_HOME writes the cache under <home>/.dsh', async () => {
    const temp = await tempDir()
    try {
      const { gateway } = await createGateway({}, { env: { PATH: process.env.PATH }, home: temp.dir })
      expect(gateway.cache.path).toBe(join(temp.dir, '.dsh', 'lazy-mcp', 'tool-cache.json'))
      await gateway.dispose()
    } finally {
      await temp.remove()
    }
  })
})
