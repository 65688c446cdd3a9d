#!/usr/bin/env node
// DSH's own `packages/core/tools` specs at each DSH release tag (default: dsh-v0.1.0-rc.8 and dsh-v0.1.1-rc.2), run
// against the pinned rc.8 npm packages twice per tag: stock, and with `installOnToolRuntimePrototype` from
// @dsh-harden/overlay installed. Prints both pass counts per tag, the git trees of the tag's `src/` and `tests/`, and
// every spec whose result differs. Nothing of DSH's test logic is rewritten: only the imports of DSH's own sources
// become imports of the published package (its tarball ships no `src/` and no `tests/`). See
// packages/core/overlay/DSH-SUITE.md.
//
//   pnpm dsh-suite [--repo <DSH git checkout or bare repo>] [--tag <tag>]... [--profile <id>] [--keep]
//                  [--if-repo]   (no repository: print SKIPPED with the reason and exit 0; CI uses it)
//   (env: DSH_REPO, DSH_TAG as a comma-separated list)
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
const SPECS = 'packages/core/tools/tests'
const SOURCES = 'packages/core/tools/src'
// Imports a script of DSH's monorepo that no package ships; it cannot run outside a DSH checkout's workspace.
const NOT_EXTRACTABLE = new Set(['gen-tool-catalog.spec.ts'])
const RUN_TIMEOUT_MS = 20 * 60_000
/**
 * The specs whose result the overlay changes on purpose with the installer's default options (DSH-SUITE.md, "Every
 * difference, and why"). Any other difference fails the run; with `--profile` the differences are printed only.
 */
const DOCUMENTED_DIFFERENCES = new Set([
  'tools.spec.ts > ToolRuntime rejects schema projection when a raw registration is not lossless JSON',
])

function option(name, env, fallback) {
  const index = process.argv.indexOf(`--${name}`)
  if (index !== -1 && process.argv[index + 1] !== undefined) return process.argv[index + 1]
  return process.env[env] ?? fallback
}

/** Every `--tag <tag>` given, else `--tags a,b` or DSH_TAG (comma-separated), else both release lines users run. */
function tags() {
  const given = process.argv.flatMap((arg, index) =>
    arg === '--tag' && process.argv[index + 1] !== undefined ? [process.argv[index + 1]] : [],
  )
  if (given.length > 0) return given
  const listed = option('tags', 'DSH_TAG', undefined)
  if (listed) return listed.split(',').map((tag) => tag.trim())
  return ['dsh-v0.1.0-rc.8', 'dsh-v0.1.1-rc.2']
}

const repo = option('repo', 'DSH_REPO', undefined)
const TAGS = tags()
const profile = option('profile', 'DSH_SUITE_PROFILE', undefined)
const keep = process.argv.includes('--keep')

if (repo === undefined || !existsSync(repo)) {
  // The specs are not on npm: @deepseek-ai/dsh-tools@0.1.0-rc.8 packs only lib/ (no src/, no tests/), and no
  // 0.1.1-rc.2 package was published. Without a DSH repository there is nothing to run.
  const where = repo === undefined ? 'no DSH repository given' : `no DSH repository at ${repo}`
  const reason =
    `${where}; DSH's specs are not in any npm tarball (@deepseek-ai/dsh-tools ships lib/ only). ` +
    'Clone one (git clone https://github.com/deepseek-ai/deepseek-harness) and pass --repo <path> or set DSH_REPO.'
  if (process.argv.includes('--if-repo')) {
    console.log(`dsh-suite: SKIPPED (${TAGS.join(', ')} not run): ${reason}`)
    process.exit(0)
  }
  console.error(`dsh-suite: ${reason}`)
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

/** The git tree id of `path` at `tag`: equal ids mean byte-identical directories. */
function treeOf(tag, path) {
  return execFileSync('git', ['-C', repo, 'rev-parse', `${tag}:${path}`], { encoding: 'utf8' }).trim()
}

/** DSH's specs at the tag, extracted with `git archive` (works on a bare mirror and on a checkout) into `root`. */
function extractSpecs(tag, root) {
  mkdirSync(root, { recursive: true })
  const archive = execFileSync('git', ['-C', repo, 'archive', '--format=tar', tag, SPECS], {
    maxBuffer: 256 * 1024 * 1024,
  })
  execFileSync('tar', ['-x', '-C', root], { input: archive })
  const dir = join(root, SPECS)
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

/** The version of the @deepseek-ai/dsh-tools the specs import (the workspace's pinned copy). */
function installedToolsVersion() {
  const manifest = join(work, 'node_modules/@deepseek-ai/dsh-tools/package.json')
  return JSON.parse(readFileSync(manifest, 'utf8')).version
}

function writeConfigs(root) {
  const options = profile === undefined ? '' : `, { route: ${JSON.stringify(profile)} }`
  writeFileSync(
    join(root, 'overlay-setup.ts'),
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
      join(root, `vitest.${name}.config.mjs`),
      `export default { test: { include: ['${SPECS}/**/*.spec.ts'], setupFiles: ${JSON.stringify(setup)}, pool: 'forks', maxWorkers: 2, testTimeout: 60_000, hookTimeout: 60_000 } }\n`,
    )
  }
}

/** One vitest run in `root`; the per-spec results from its JSON report. */
function run(tag, root, name) {
  const report = join(root, `${name}.json`)
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs')
  process.stderr.write(`dsh-suite: running DSH's ${SPECS} specs at ${tag}, ${name}…\n`)
  const result = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', `vitest.${name}.config.mjs`, '--reporter=json', `--outputFile=${report}`],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' },
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

/**
 * Both runs at one tag, printed. Passes when the stock run passes (else the environment is broken) and, with the
 * default options, the overlay changes no spec beyond the documented ones.
 */
function suiteAt(tag) {
  const root = join(work, tag)
  const files = extractSpecs(tag, root)
  writeConfigs(root)
  const stock = run(tag, root, 'stock')
  const overlay = run(tag, root, 'overlay')
  const names = [...new Set([...stock.keys(), ...overlay.keys()])].sort()
  const differing = names.filter((name) => stock.get(name)?.status !== overlay.get(name)?.status)
  console.log(
    `DSH ${SPECS} at ${tag} (${files.length} spec files; skipped: ${[...NOT_EXTRACTABLE].join(', ')})`,
  )
  console.log(`  git trees: packages/core/tools/src ${treeOf(tag, SOURCES)}, tests ${treeOf(tag, SPECS)}`)
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
  const undocumented = differing.filter((name) => !DOCUMENTED_DIFFERENCES.has(name))
  if (profile === undefined && undocumented.length > 0)
    console.log(`  FAIL: ${undocumented.length} of them not documented in DSH-SUITE.md`)
  if (passed(stock) !== stock.size)
    console.log('  FAIL: the stock run does not pass (the environment is broken)')
  return passed(stock) === stock.size && (profile !== undefined || undocumented.length === 0)
}

let exitCode = 0
try {
  linkPackages()
  console.log(
    `dsh-suite: specs from ${repo}; packages: the workspace's pinned @deepseek-ai/dsh-tools@${installedToolsVersion()}`,
  )
  const [first] = TAGS
  for (const tag of TAGS) {
    if (
      tag !== first &&
      treeOf(tag, SOURCES) === treeOf(first, SOURCES) &&
      treeOf(tag, SPECS) === treeOf(first, SPECS)
    )
      console.log(`  (${tag}: packages/core/tools/src and tests are the same git trees as at ${first})`)
    if (!suiteAt(tag)) exitCode = 1
  }
} finally {
  if (keep) console.log(`dsh-suite: kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
process.exit(exitCode)
