import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { hashFiles } from '@dsh-harden/testkit/app-registry'
import {
  childEnv,
  createDshHome,
  dshAppDir,
  dshAppManifest,
  profilePatch,
  writeProfile,
} from '@dsh-harden/testkit/dsh-app'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readAppRequest } from '../src/app/app-endpoint.ts'
import { resultOk, resultsSeen } from '../src/app/app-session.ts'
import { insertLayer, profileBundles } from '../src/app/group-parts.ts'
import { failureReason } from '../src/app/install-row.ts'
import { namingApplied, observedOrder, timesTold } from '../src/app/load-order-rows.ts'
import { startedServers } from '../src/app/mcp-rows.ts'
import { namingLine, pluginSource, replaceUserLayer, waitForFile } from '../src/app/plugin-rows.ts'

describe('childEnv', () => {
  it('drops DSH_*, DEEPSEEK_*, npm_* and secret-looking names, keeps the rest, puts pathFirst first', () => {
    const env = childEnv(
      {
        PATH: '/usr/bin',
        HOME: '/root',
        NODE_EXTRA_CA_CERTS: '/ca.pem',
        DSH_HOME: '/mine',
        DEEPSEEK_API_KEY: 'sk-real',
        GITHUB_TOKEN: 'ghp',
        AWS_SECRET_ACCESS_KEY: 'x',
        npm_config_registry: 'https://example.invalid',
      },
      { DSH_HOME: '/run' },
      ['/app/bin'],
    )
    expect(env).toEqual({
      PATH: '/app/bin:/usr/bin',
      HOME: '/root',
      NODE_EXTRA_CA_CERTS: '/ca.pem',
      DSH_HOME: '/run',
    })
  })

  it('never passes a DSH_/DEEPSEEK_ variable of the caller through (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('DSH_', 'DEEPSEEK_', 'dsh_'),
        fc.string(),
        fc.string(),
        (prefix, rest, value) => {
          const env = childEnv({ [`${prefix}${rest}`]: value })
          return Object.keys(env).every((key) => key === 'PATH')
        },
      ),
    )
  })
})

describe('app install directory', () => {
  it('is named by the manifest: the same manifest, the same directory; another pin, another directory', () => {
    const manifest = dshAppManifest()
    expect(dshAppDir('/c', manifest)).toBe(dshAppDir('/c', dshAppManifest()))
    expect(dshAppDir('/c', manifest)).toMatch(/^\/c\/dsh-harden\/dsh-app-[0-9a-f]{16}$/)
    expect(dshAppDir('/c', { ...manifest, dependencies: { '@deepseek-ai/dsh': '0.1.0-rc.9' } })).not.toBe(
      dshAppDir('/c', manifest),
    )
  })

  it('pins cordis-plugin-hmr to 1.0.16 and Node 22 beside the app', () => {
    const manifest = dshAppManifest() as { dependencies: Record<string, string>; pnpm: { overrides: object } }
    expect(manifest.dependencies).toEqual({ '@deepseek-ai/dsh': '0.1.0-rc.8', node: '22.23.3' })
    expect(manifest.pnpm.overrides).toEqual({ '@deepseek-ai/cordis-plugin-hmr': '1.0.16' })
  })
})

describe('profiles', () => {
  it('the user layer always starts with the hmr row', () => {
    expect(profilePatch()).toBe('- id: hmr\n  disabled: false\n')
    expect(profilePatch('- insert:\n    - id: x\n      name: y\n\n')).toBe(
      '- id: hmr\n  disabled: false\n- insert:\n    - id: x\n      name: y\n',
    )
  })

  it('writes the headless bundles, keeps what plugin add installed, and reads the bundles back', () => {
    const home = createDshHome()
    try {
      const dir = writeProfile(home, 'p', { npmrc: '@dsh-harden:registry=http://127.0.0.1:1/\n' })
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      manifest.dependencies = { '@dsh-harden/overlay': '0.1.0' }
      manifest.dsh.profile.bundles.push('@dsh-harden/overlay')
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest))
      writeProfile(home, 'p', { patch: '- id: x\n  disabled: true\n' })
      const after = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      expect(after.dependencies).toEqual({ '@dsh-harden/overlay': '0.1.0' })
      expect(readFileSync(join(dir, '.npmrc'), 'utf8')).toBe('@dsh-harden:registry=http://127.0.0.1:1/\n')
      expect(readFileSync(join(dir, 'cordis.patch.yml'), 'utf8')).toBe(
        '- id: hmr\n  disabled: false\n- id: x\n  disabled: true\n',
      )
      expect(profileBundles(home, 'p')).toEqual([
        '@deepseek-ai/dsh-base',
        '@deepseek-ai/dsh-headless',
        '@dsh-harden/overlay',
      ])
    } finally {
      home.close()
    }
  })

  it('replaceUserLayer swaps the layer in one rename: the new text whole, no sibling left behind', () => {
    const home = createDshHome()
    try {
      const dir = writeProfile(home, 'p', { patch: '- id: old\n  disabled: true\n' })
      const layer = join(dir, 'cordis.patch.yml')
      const before = statSync(layer).ino
      replaceUserLayer(home, 'p', '- id: new\n  disabled: false\n')
      expect(readFileSync(layer, 'utf8')).toBe(profilePatch('- id: new\n  disabled: false\n'))
      // A rename, not an in-place rewrite: the layer is a new file (no reader can see it truncated).
      expect(statSync(layer).ino).not.toBe(before)
      expect(existsSync(`${layer}.next`)).toBe(false)
    } finally {
      home.close()
    }
  })

  it('waitForFile: true once the file appears (also when it already exists), false at the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'regress-wait-'))
    try {
      const file = join(dir, 'applied')
      const waiting = waitForFile(file, 60_000)
      writeFileSync(file, 'applied')
      await expect(waiting).resolves.toBe(true)
      await expect(waitForFile(file, 60_000)).resolves.toBe(true)
      await expect(waitForFile(join(dir, 'never'), 1)).resolves.toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('insertLayer writes nothing for no items', () => {
    expect(insertLayer('')).toBe('')
    expect(insertLayer('    - id: a\n')).toBe('- insert:\n    - id: a\n')
  })
})

describe('reading what the endpoint recorded', () => {
  it('tells agent requests from title requests and applies DeepSeek’s schema rules to every tool', () => {
    const agent = readAppRequest({
      tools: [
        { type: 'function', function: { name: 'ok', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'bare', parameters: { q: { type: 'string' } } } },
      ],
      messages: [
        { role: 'tool', tool_call_id: 'call_0_0', content: [{ type: 'text', text: 'Error: nope' }] },
      ],
    })
    expect(agent.kind).toBe('agent')
    expect(agent.rejections).toHaveLength(1)
    expect(agent.rejections[0]).toContain("'bare'")
    expect(agent.toolResults).toEqual([{ callId: 'call_0_0', content: 'Error: nope' }])
    expect(agent.messagesText).toBe('Error: nope')
    expect(readAppRequest({ messages: [] }).kind).toBe('title')
  })

  it('never throws on any JSON body (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const read = readAppRequest(body)
        return read.kind === 'agent' || read.kind === 'title'
      }),
    )
  })

  it('a result is a failure exactly when DSH rendered it as an error; the last request carrying a call wins', () => {
    expect(resultOk('Error: invalid justification')).toBe(false)
    expect(resultOk(undefined)).toBe(false)
    expect(resultOk('(no output)')).toBe(true)
    const seen = resultsSeen([
      {
        kind: 'agent',
        tools: [],
        rejections: [],
        step: 0,
        messagesText: '',
        toolResults: [{ callId: 'a', content: 'one' }],
      },
      {
        kind: 'agent',
        tools: [],
        rejections: [],
        step: 1,
        messagesText: '',
        toolResults: [{ callId: 'a', content: 'two' }],
      },
    ])
    expect(seen.get('a')).toBe('two')
  })
})

describe('third-party plugin fixture', () => {
  it('registers two valid tools (one with TypeBox markers) and two broken ones, after the configured delay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-plugin-test-'))
    try {
      const file = join(dir, 'plugin.mjs')
      writeFileSync(file, pluginSource(0))
      const plugin = (await import(pathToFileURL(file).href)) as {
        name: string
        apply(ctx: unknown): void
      }
      const registered: { name: string; parameters: unknown }[] = []
      plugin.apply({
        tools: { register: (tool: { name: string; parameters: unknown }) => registered.push(tool) },
      })
      expect(plugin.name).toBe('acme-dsh-tools')
      expect(registered.map((tool) => tool.name)).toEqual([
        'acme_lookup',
        'acme_typed',
        'acme_bare_table',
        'acme_required_true',
      ])
      // The markers TypeBox 1.x (hidden `~kind`) and 0.34 (`Symbol.for('TypeBox.Kind')`) put on every node.
      const typed = registered[1]!.parameters as { properties: { id: object } }
      expect(Object.getOwnPropertyDescriptor(typed, '~kind')?.enumerable).toBe(false)
      expect(Object.getOwnPropertySymbols(typed.properties.id)).toEqual([Symbol.for('TypeBox.Kind')])
      expect(pluginSource(2000)).toMatch(/^await new Promise\(\(resolve\) => setTimeout\(resolve, 2000\)\)/)
      const marker = join(dir, 'applied')
      const file2 = join(dir, 'plugin2.mjs')
      writeFileSync(file2, pluginSource(0, marker))
      const marked = (await import(pathToFileURL(file2).href)) as { apply(ctx: unknown): void }
      marked.apply({ tools: { register: () => undefined } })
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(readFileSync(marker, 'utf8')).toBe('applied')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a refusal line counts only when it names tool, plugin and a pointer', () => {
    const plugin = ['acme-dsh-tools']
    const line =
      'dsh-harden: tool "acme_bare_table" from plugin "acme-dsh-tools" is not registered … Its parameters: /q: …'
    expect(namingLine(line, 'acme_bare_table', plugin)).toBe(line)
    expect(namingLine(line.replace('acme-dsh-tools', '?'), 'acme_bare_table', plugin)).toBeUndefined()
    expect(namingLine(line.replace('/q:', 'q:'), 'acme_bare_table', plugin)).toBeUndefined()
    expect(namingLine(line, 'acme_required_true', plugin)).toBeUndefined()
  })
})

describe('started-server marker and file hashes', () => {
  it('lists the names a launcher appended, none when no server started', () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-marker-test-'))
    try {
      const marker = join(dir, 'started.txt')
      expect(startedServers(marker)).toEqual([])
      writeFileSync(marker, 'memory\nnotes\n')
      expect(startedServers(marker)).toEqual(['memory', 'notes'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('hashFiles changes when a file’s content or the file list changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-hash-test-'))
    try {
      writeFileSync(join(dir, 'a'), '1')
      writeFileSync(join(dir, 'b'), '2')
      const first = await hashFiles(dir, ['a', 'b'])
      expect(await hashFiles(dir, ['a', 'b'])).toBe(first)
      expect(await hashFiles(dir, ['a'])).not.toBe(first)
      writeFileSync(join(dir, 'b'), '3')
      expect(await hashFiles(dir, ['a', 'b'])).not.toBe(first)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('load-order rows: what stderr says', () => {
  const before =
    'dsh-harden: tool "acme_bare_table" from plugin "acme-dsh-tools" (registered before dsh-harden started) is withdrawn. Its parameters: (root): a bare property table'
  const after =
    'dsh-harden: tool "acme_bare_table" from plugin "acme-dsh-tools" is not registered. Its parameters: (root): a bare property table'
  it('reads the load order from the overlay notice, unknown without one', () => {
    expect(observedOrder(`x\n${before}\n`)).toBe('plugin-first')
    expect(observedOrder(after)).toBe('overlay-first')
    expect(observedOrder('dsh: something else about acme_lookup')).toBe('unknown')
  })
  it('sees whether the profile naming took effect: toolOrder puts acme_lookup last, the filter strips the parent tools', () => {
    expect(namingApplied('tool-order', [['a', 'bash', 'acme_lookup']])).toBe(true)
    expect(namingApplied('tool-order', [['acme_lookup', 'bash']])).toBe(false)
    const parent = ['acme_lookup', 'bash', 'subagent']
    expect(namingApplied('subagent-filter', [parent, ['acme_lookup', 'report']])).toBe(true)
    expect(namingApplied('subagent-filter', [parent, ['acme_lookup', 'bash']])).toBe(false)
    expect(namingApplied('subagent-filter', [parent])).toBe(false)
  })

  it('counts the lines that tell the user (tool, plugin and a pointer), not other mentions', () => {
    expect(timesTold(`${after}\n${after}\nacme_bare_table mentioned without a plugin\n`)).toBe(2)
    expect(timesTold(after)).toBe(1)
    expect(timesTold('')).toBe(0)
  })
})

describe('install failure reason', () => {
  const run = (stdout: string, stderr: string) => ({
    exitCode: 1,
    signal: null,
    timedOut: false,
    ms: 1,
    stdout,
    stderr,
  })

  it('quotes pnpm’s error-code line, wherever pnpm printed it', () => {
    const stdout =
      ' ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@dsh-harden%2Foverlay: Not Found - 404\n\nThis error happened while installing a direct dependency\n'
    expect(failureReason(run(stdout, 'dsh: pnpm failed in profile directory /p\n'))).toBe(
      'ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@dsh-harden%2Foverlay: Not Found - 404',
    )
  })

  it('falls back to the last error line, then to the exit', () => {
    expect(failureReason(run('', 'a\nsomething failed here\nb\n'))).toBe('something failed here')
    expect(failureReason(run('', ''))).toBe('exit 1')
  })
})
