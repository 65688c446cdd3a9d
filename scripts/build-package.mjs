// `build` and `prepack` of every publishable package (turbo, `pnpm pack` and `pnpm publish` run it in the package
// directory): a clean build of dist/ from src/, then a check that every file the published package.json points at
// exists. Packing without a build is impossible, and a stale dist/ (files of deleted sources) never reaches a tarball.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const dir = process.cwd()
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))

function fail(message) {
  process.stderr.write(`build ${manifest.name}: ${message}; no dist/ for it.\n`)
  process.exit(1)
}

/** Every string leaf of an `exports` map, plus `bin` targets: the files a user's import or command opens. */
function targets(value) {
  if (typeof value === 'string') return [value]
  if (value === null || typeof value !== 'object') return []
  return Object.values(value).flatMap(targets)
}

rmSync(join(dir, 'dist'), { recursive: true, force: true })
const tsc = createRequire(join(dir, 'package.json')).resolve('typescript/bin/tsc')
try {
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' })
} catch {
  fail('tsc -p tsconfig.build.json failed (its errors are above)')
}
/**
 * `"dsh-harden": { "bundle": ["dist/index.js"] }`: each listed entry becomes one module with the package's own files
 * inlined and every dependency left an import. Node's loader spends about 0.4 ms of CPU per module it resolves and
 * reads, so a package of fifty modules costs every DSH start some 18 ms more than one module does. tsc's declarations
 * stay as they are.
 */
async function bundleEntries(entries) {
  const { build } = await import(
    pathToFileURL(createRequire(join(dir, 'package.json')).resolve('rolldown')).href
  )
  const staging = join(dir, 'dist-bundle')
  rmSync(staging, { recursive: true, force: true })
  await build({
    input: Object.fromEntries(
      entries.map((entry) => [entry.replace(/^dist\//, '').replace(/\.js$/, ''), join(dir, entry)]),
    ),
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    platform: 'node',
    logLevel: 'warn',
    output: {
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
  })
  for (const entry of readdirSync(join(dir, 'dist'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.js')) rmSync(join(entry.parentPath ?? entry.path, entry.name))
  }
  cpSync(staging, join(dir, 'dist'), { recursive: true })
  rmSync(staging, { recursive: true, force: true })
}

const bundled = manifest['dsh-harden']?.bundle ?? []
if (bundled.length > 0) {
  try {
    await bundleEntries(bundled)
  } catch (error) {
    fail(`bundling ${bundled.join(', ')} failed: ${error instanceof Error ? error.message : error}`)
  }
}
const published = [...targets(manifest.publishConfig?.exports ?? manifest.exports), ...targets(manifest.bin)]
const missing = published.filter((target) => !existsSync(join(dir, target)))
if (missing.length > 0)
  fail(`the build made no ${missing.join(', ')}: fix publishConfig.exports or tsconfig.build.json`)
