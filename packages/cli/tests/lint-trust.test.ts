import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay } from '@dsh-harden/overlay'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lintError, lintJson, PACKAGE_DIR, runCli } from './run-cli.ts'

const ROOT = join(PACKAGE_DIR, '..', '..')

/** A plugin folder of its own, outside the checkout, as a plugin author has it. */
let pluginDir: string
beforeAll(async () => {
  pluginDir = await mkdtemp(join(tmpdir(), 'dsh-harden-plugin-'))
  await writeFile(
    join(pluginDir, 'package.json'),
    JSON.stringify({ name: 'acme-plugin', version: '1.0.0', type: 'module', main: 'index.js' }),
  )
  await writeFile(
    join(pluginDir, 'index.js'),
    [
      "export const name = 'acme-plugin'",
      "export const inject = ['tools']",
      'export function apply(ctx) {',
      "  ctx.tools.register({ name: 'acme_lookup', description: 'Look up.', parameters: { type: 'object', properties: { q: { type: 'string' } } }, output: { schema: { type: 'object' }, render: () => [] }, execute: async () => ({}) })",
      '}',
      '',
    ].join('\n'),
  )
})
afterAll(() => rm(pluginDir, { recursive: true, force: true }))

function shell(
  command: string,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Only the user's basics: the command must find pnpm and Node 22 the way a user's shell does.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8' }
    const child = execFile(
      'bash',
      ['-c', command],
      { cwd, env, timeout: 600_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        })
      },
    )
    child.stdin?.end()
  })
}

describe('dsh-harden lint: a plugin that loads in DSH loads in lint', { timeout: 600_000 }, () => {
  it("runs a plugin that injects cordis' timer and calls ctx.interval (DSH's timer row, not a stand-in)", async () => {
    const { code, report } = await lintJson('tests/fixtures/uses-timer.mjs')
    expect(code).toBe(0)
    expect(report.standIns).toEqual([])
    expect(report.tools.map(({ name, ok }) => ({ name, ok }))).toEqual([{ name: 'poll_status', ok: true }])
  })
})

describe('dsh-harden lint --json: stdout is the report and nothing else', { timeout: 600_000 }, () => {
  it("sends what the plugin prints while loading, from a timer and in process.on('exit') to stderr", async () => {
    const result = await runCli(['lint', 'tests/fixtures/prints-at-exit.mjs', '--json'])
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as { tools: { name: string }[] }
    expect(report.tools.map((tool) => tool.name)).toEqual(['say_hello'])
    expect(result.stdout.trimEnd().endsWith('}')).toBe(true)
    expect(result.stdout).not.toContain('prints-at-exit:')
    expect(result.stderr).toContain('prints-at-exit: loading')
    expect(result.stderr).toContain('prints-at-exit: goodbye')
    expect(result.stderr).toContain('prints-at-exit: raw goodbye')
  })
})

describe('dsh-harden lint names the plugin, where it is', { timeout: 600_000 }, () => {
  it('shows an absolute target as given, not relative to the CLI folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dsh-harden-abs-'))
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'abs', type: 'module', main: 'entry.js' }),
    )
    await writeFile(
      join(dir, 'entry.js'),
      "import 'not-installed-anywhere'\nexport default function apply() {}\n",
    )
    const { code, error } = await lintError(dir)
    expect(code).toBe(2)
    expect(error).toBe(
      `${dir} (entry ${join(dir, 'entry.js')}) failed to import: Cannot find package 'not-installed-anywhere' imported from ${join(dir, 'entry.js')}`,
    )
    await rm(dir, { recursive: true, force: true })
  })

  it("names the plugin's file as the importer of a require() relative to the main script", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dsh-harden-req-'))
    const file = join(dir, 'bundled.mjs')
    // The pattern of bundled plugins: resolve from the main script. Under lint that is the plugin, not bin/dsh-harden.js.
    await writeFile(
      file,
      "import { createRequire } from 'node:module'\ncreateRequire(process.argv[1])('not-installed-anywhere')\nexport default function apply() {}\n",
    )
    const { code, error } = await lintError(file)
    expect(code).toBe(2)
    expect(error).toBe(
      `${file} failed to import: Cannot find module 'not-installed-anywhere'\nRequire stack:\n- ${file}`,
    )
    expect(error).not.toContain('dsh-harden.js')
    await rm(dir, { recursive: true, force: true })
  })
})

describe('the lint command the refusal notice names works where the plugin author is', {
  timeout: 600_000,
}, () => {
  let commands: string[] = []

  beforeAll(async () => {
    // The notice as the overlay prints it on stderr when it refuses a tool in a real DSH runtime.
    const written: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    }) as typeof process.stderr.write
    try {
      const app = new Context()
      await app.plugin(SystemPrompt)
      await app.plugin(ToolRuntime)
      await app.plugin(HardenOverlay)
      await app.plugin({
        name: 'acme-plugin',
        inject: ['tools'],
        apply(ctx: Context) {
          const output = { schema: { type: 'object' }, render: () => [] }
          ;(ctx as unknown as { tools: { register(tool: unknown): void } }).tools.register({
            name: 'acme_bare',
            description: 'A bare property table.',
            parameters: { q: { type: 'string' } },
            output,
            execute: async () => ({}),
          })
        },
      })
      // The overlay judges a tool at its first read (a listing, `get()`, a call): the notice comes then.
      ;(app as unknown as { tools: { get(name: string): unknown } }).tools.get('acme_bare')
    } finally {
      process.stderr.write = write
    }
    const notice = written.find((line) => line.startsWith('dsh-harden: ') && line.includes('acme_bare'))
    expect(notice, written.join('')).toBeDefined()
    // The notice ends with the one command that lints the plugin today, from its folder.
    commands = [notice!.match(/from the plugin's folder with: (.+)$/m)?.[1] ?? '']
  })

  it("names this checkout's CLI on its own Node 22, by absolute paths, with no placeholder to fill", () => {
    expect(commands).toHaveLength(1)
    expect(commands[0]).toContain(join(ROOT, 'packages/cli/bin/dsh-harden.js'))
    expect(commands[0]).toMatch(/ lint \.$/)
    expect(commands[0]).not.toMatch(/<|npx/)
  })

  it('the command lints the plugin from its own folder (outside the checkout), as printed', async () => {
    const result = await shell(commands[0]!, pluginDir)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('ok   acme_lookup')
    expect(result.stdout).toContain('acme-plugin (.): 1 tool, all ok')
  })

  it('the command with --json prints only the report on stdout', async () => {
    const result = await shell(`${commands[0]!} --json`, pluginDir)
    expect(result.code, result.stderr).toBe(0)
    expect((JSON.parse(result.stdout) as { plugin: { path: string } }).plugin.path).toBe('.')
  })
})
