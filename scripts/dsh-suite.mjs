#!/usr/bin/env node
// DSH's own `packages/core/tools` specs, run against the pinned rc.8 npm packages twice: stock, and with
// `installOnToolRuntimePrototype` from @dsh-harden/overlay installed. Prints both pass counts and every spec whose
// result differs. Nothing of DSH's test logic is rewritten: only the imports of DSH's own sources become imports of
// the published package (its tarball ships no `src/`). See packages/core/overlay/DSH-SUITE.md.
//
//   pnpm dsh-suite [--repo <DSH git checkout or bare repo>] [--tag <tag>] [--profile <id>] [--keep]
//   (env: DSH_REPO, DSH_TAG)
import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_REPO = '/work/.mirror/deepseek-ai+deepseek-harness/repo'
const SPECS = 'packages/core/tools/tests'
// Imports a script of DSH's monorepo that no package ships; it cannot run outside a DSH checkout's workspace.
const NOT_EXTRACTABLE = new Set(['gen-tool-catalog.spec.ts'])
const RUN_TIMEOUT_MS = 20 * 60_000

function option(name, env, fallback) {
  const index = process.argv.indexOf(`--${name}`)
  if (index !== -1 && process.argv[index + 1] !== undefined) return process.argv[index + 1]
  return process.env[env] ?? fallback
}

const repo = option('repo', 'DSH_REPO', DEFAULT_REPO)
const tag = option('tag', 'DSH_TAG', 'dsh-v0.1.0-rc.8')
const profile = option('profile', 'DSH_SUITE_PROFILE', undefined)
const keep = process.argv.includes('--keep')

if (!existsSync(repo)) {
  console.error(
    `dsh-suite: no DSH repository at ${repo}. Clone one (git clone https://github.com/deepseek-ai/deepseek-harness) and pass --repo <path> or set DSH_REPO.`,
  )
  process.exit(2)
}
const major = Number(process.versions.node.split('.')[0])
if (major < 22) {
  console.error(
    `dsh-suite: DSH rc.8 needs Node >= 22.19 (this is ${process.version}); run it as \`pnpm dsh-suite\`.`,
  )
  process.exit(2)
}

const work = mkdtempSync(join(tmpdir(), 'dsh-suite-'))

/** DSH's specs at the tag, extracted with `git archive` (works on a bare mirror and on a checkout). */
function extractSpecs() {
  const archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', tag, SPECS], {
    maxBuffer: 256 * 1024 * 1024,
  })
  execFileSync('tar', ['-x', '-C', work], { input: archive })
  const dir = join(work, SPECS)
  const files = readdirSync(dir).filter((name) => name.endsWith('.spec.ts'))
  for (const name of files) {
    if (NOT_EXTRACTABLE.has(name)) {
      rmSync(join(dir, name))
      continue
    }
    const path = join(dir, name)
    const text = readFileSync(path, 'utf8')
      .replaceAll("'../src/index.ts'", "'@deepseek-ai/dsh-tools'")
      .replaceAll(/'@deepseek-ai\/dsh-tools\/src\/[\w-]+\.ts'/g, "'@deepseek-ai/dsh-tools'")
    writeFileSync(path, text)
  }
  return files.filter((name) => !NOT_EXTRACTABLE.has(name))
}

/** The pinned packages this workspace installed (one copy each, so the installer patches the class the specs use). */
function linkPackages() {
  const modules = join(work, 'node_modules')
  const scope = join(modules, '@deepseek-ai')
  mkdirSync(scope, { recursive: true })
  const installed = join(ROOT, 'node_modules/.pnpm/node_modules/@deepseek-ai')
  for (const name of readdirSync(installed)) symlinkSync(join(installed, name), join(scope, name))
  for (const name of ['vitest', 'fast-check'])
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
  mkdirSync(join(modules, '@dsh-harden'))
  symlinkSync(join(ROOT, 'packages/core/overlay'), join(modules, '@dsh-harden/overlay'))
}

function writeConfigs() {
  const options = profile === undefined ? '' : `, { profile: ${JSON.stringify(profile)} }`
  writeFileSync(
    join(work, 'overlay-setup.ts'),
    [
      "import ToolRuntime from '@deepseek-ai/dsh-tools'",
      "import { installOnToolRuntimePrototype } from '@dsh-harden/overlay'",
      `installOnToolRuntimePrototype(ToolRuntime${options})`,
      '',
    ].join('\n'),
  )
  for (const [name, setup] of [
    ['stock', []],
    ['overlay', ['./overlay-setup.ts']],
  ]) {
    writeFileSync(
      join(work, `vitest.${name}.config.mjs`),
      `export default { test: { include: ['${SPECS}/**/*.spec.ts'], setupFiles: ${JSON.stringify(setup)}, pool: 'forks', maxWorkers: 2, testTimeout: 60_000, hookTimeout: 60_000 } }\n`,
    )
  }
}

/** One vitest run; the per-spec results from its JSON report. */
function run(name) {
  const report = join(work, `${name}.json`)
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs')
  process.stderr.write(`dsh-suite: running DSH's ${SPECS} specs at ${tag}, ${name}…\n`)
  const result = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', `vitest.${name}.config.mjs`, '--reporter=json', `--outputFile=${report}`],
    { cwd: work, stdio: ['ignore', 'ignore', 'inherit'], timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' },
  )
  if (!existsSync(report))
    throw new Error(`vitest (${name}) wrote no report (exit ${result.status}, ${result.signal ?? ''})`)
  const parsed = JSON.parse(readFileSync(report, 'utf8'))
  const results = new Map()
  for (const file of parsed.testResults) {
    const spec = file.name.slice(file.name.indexOf(SPECS) + SPECS.length + 1)
    for (const test of file.assertionResults)
      results.set(`${spec} > ${test.fullName}`, { status: test.status, message: test.failureMessages?.[0] })
    // A file that fails to load has no assertion results: count it as one failure under its name.
    if (file.assertionResults.length === 0 && file.status === 'failed')
      results.set(`${spec} (file)`, { status: 'failed', message: file.message })
  }
  return results
}

function passed(results) {
  return [...results.values()].filter((r) => r.status === 'passed').length
}

function firstLine(text) {
  return (
    (text ?? '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  )
}

let exitCode = 0
try {
  const files = extractSpecs()
  linkPackages()
  writeConfigs()
  const stock = run('stock')
  const overlay = run('overlay')
  const names = [...new Set([...stock.keys(), ...overlay.keys()])].sort()
  const differing = names.filter((name) => stock.get(name)?.status !== overlay.get(name)?.status)
  console.log(
    `DSH ${SPECS} at ${tag} (${files.length} spec files; skipped: ${[...NOT_EXTRACTABLE].join(', ')})`,
  )
  console.log(`  stock:                          ${passed(stock)}/${stock.size} passed`)
  console.log(
    `  installOnToolRuntimePrototype${profile === undefined ? '' : ` (profile ${profile})`}: ${passed(overlay)}/${overlay.size} passed`,
  )
  console.log(`  specs whose result differs: ${differing.length}`)
  for (const name of differing) {
    const after = overlay.get(name)
    console.log(
      `  - ${name}: stock ${stock.get(name)?.status ?? 'absent'}, overlay ${after?.status ?? 'absent'}`,
    )
    if (after?.message) console.log(`      ${firstLine(after.message)}`)
  }
  if (passed(stock) !== stock.size) exitCode = 1
} finally {
  if (keep) console.log(`dsh-suite: kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
process.exit(exitCode)
