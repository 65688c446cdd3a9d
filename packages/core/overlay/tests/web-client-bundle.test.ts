import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildClient, SHELL_MODULES } from '../client/build.mjs'
import { en, NS, zh } from '../client/src/locales.ts'

/**
 * The browser bundle is in the shape rc.8's web shell loads (`@deepseek-ai/dsh-client-modules`): one classic script
 * that registers a factory under the package name, takes only shell modules from the factory's `require`, and
 * exports a cordis plugin (`inject`, `apply`). The real shell loading it is the regress `web-ui` group; this test
 * reads the artifact itself, built into a temp directory.
 */
let dir: string
let source: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-harden-client-'))
  await buildClient(join(dir, 'client.js'))
  source = await readFile(join(dir, 'client.js'), 'utf8')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

interface Registration {
  readonly id: string
  readonly factory: (require: (specifier: string) => unknown) => Record<string, unknown>
}

/** Runs the script as the page would, with `globals` as the page's other globals (a stand-in `document`). */
function register(globals: Record<string, unknown> = {}): Registration {
  const registrations: Registration[] = []
  runInNewContext(source, {
    ...globals,
    window: { __ModuleLoader__: { load: (r: Registration) => registrations.push(r) } },
  })
  expect(registrations).toHaveLength(1)
  return registrations[0]!
}

describe('the browser bundle', () => {
  it('registers one factory under the package name, and runs nothing else at load', () => {
    expect(register().id).toBe('@dsh-harden/overlay')
  })

  it('asks the shell only for its shared modules, and exports a plugin', () => {
    const requested: string[] = []
    const exports = register().factory((specifier) => {
      requested.push(specifier)
      return {}
    })
    expect(requested.length).toBeGreaterThan(0)
    expect(requested.filter((specifier) => !SHELL_MODULES.has(specifier))).toEqual([])
    expect(exports.inject).toEqual(['slots', 'locale'])
    expect(typeof exports.apply).toBe('function')
  })

  it('contributes the session-header badge and the Settings tab, its dictionaries and its stylesheet', () => {
    const head: { id: string; dataset: Record<string, string> }[] = []
    const document = {
      createElement: () => ({ dataset: {}, id: '', textContent: '', remove: () => head.pop() }),
      head: { appendChild: (node: { id: string; dataset: Record<string, string> }) => head.push(node) },
    }
    const exports = register({ document }).factory(() => ({}))
    const slots: { name: string; id: string }[] = []
    const dictionaries: unknown[] = []
    const disposers: (() => void)[] = []
    const ctx = {
      effect: (setup: () => () => void) => disposers.push(setup()),
      locale: {
        register: (ns: string, value: unknown) => {
          dictionaries.push([ns, value])
          return () => {}
        },
        bind: () => (key: string) => key,
      },
      slots: {
        inject: (_slot: string, run: () => () => void) => disposers.push(run()),
        register: (options: { name: string; id: string }) => {
          slots.push({ name: options.name, id: options.id })
          return () => {}
        },
      },
    }
    ;(exports.apply as (ctx: unknown) => void)(ctx)
    expect(slots).toEqual([
      { name: 'conversation.session.header.actions', id: 'dsh-harden-tool-contracts' },
      { name: 'settings.plugins.tab', id: 'dsh-harden-tool-contracts' },
    ])
    expect(dictionaries).toEqual([[NS, { zh, en }]])
    expect(head.map((node) => [node.id, node.dataset.plugin])).toEqual([
      ['dsh-harden-tool-contracts', '@dsh-harden/overlay'],
    ])
    // Unloading the plugin (HMR, a profile change) takes its stylesheet with it.
    for (const dispose of disposers) dispose()
    expect(head).toEqual([])
  })
})
