// Brings a fresh clone (Node >= 20 and npm, nothing else) to a working state: pnpm at the version pinned in
// package.json, then the workspace, which brings its own Node 22 for everything that loads DeepSeek Harness.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const wanted = packageManager.replace(/^pnpm@/, '')

function installedPnpm() {
  try {
    return execFileSync('pnpm', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return undefined
  }
}

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function run(command, args) {
  execFileSync(command, args, { cwd: root, stdio: 'inherit' })
}

// Corepack's signature check fails against this registry, so pnpm comes from npm itself.
if (installedPnpm() !== wanted) {
  console.log(`bootstrap: installing pnpm@${wanted} with npm`)
  run('npm', ['install', '--global', `pnpm@${wanted}`])
}
run('pnpm', ['install', '--frozen-lockfile', '--reporter=append-only'])

// The browser tests (the gateway's status panel, the overlay's Tool contracts panel in the real `dsh web`, the compat
// page) run a real headless Chromium, which comes from Debian, not npm; the CJK font makes the Chinese screenshots
// show characters rather than boxes.
const BROWSER_PACKAGES = ['chromium', 'fonts-wqy-microhei']

function missingDebianPackages(names) {
  return names.filter((name) => {
    try {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a JS template
      const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', name], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      return !status.includes('install ok installed')
    } catch {
      return true
    }
  })
}

if (process.argv.includes('--browser')) {
  const missing = hasCommand('dpkg-query') ? missingDebianPackages(BROWSER_PACKAGES) : []
  if (!hasCommand('chromium') && !missing.includes('chromium')) missing.push('chromium')
  if (missing.length > 0) {
    if (process.getuid?.() === 0 && hasCommand('apt-get')) {
      console.log(`bootstrap: installing Debian ${missing.join(', ')} for the browser tests`)
      run('apt-get', ['update', '-qq'])
      run('apt-get', ['install', '-y', '-qq', ...missing])
    } else {
      console.log(
        `bootstrap: missing Debian ${missing.join(', ')}; install them, or set DSH_HARDEN_SKIP_BROWSER=1 to skip the browser tests`,
      )
    }
  }
}
