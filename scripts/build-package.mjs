// `build` and `prepack` of every publishable package (turbo, `pnpm pack` and `pnpm publish` run it in the package
// directory): a clean build of dist/ from src/, then a check that every file the published package.json points at
// exists. Packing without a build is impossible, and a stale dist/ (files of deleted sources) never reaches a tarball.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

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
const published = [...targets(manifest.publishConfig?.exports ?? manifest.exports), ...targets(manifest.bin)]
const missing = published.filter((target) => !existsSync(join(dir, target)))
if (missing.length > 0)
  fail(`the build made no ${missing.join(', ')}: fix publishConfig.exports or tsconfig.build.json`)
