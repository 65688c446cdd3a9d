import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { WORKSPACE_ROOT } from '@dsh-harden/testkit/workspace-packages'
// The README examples reader of the CLI's tests: the markers a README's commands carry, one vocabulary for all.
import { type ShellExample, shellExamples } from '../../../packages/cli/tests/readme-examples.ts'
import type { Check, Observed, Row } from '../row.ts'
import { GROUP } from './group-parts.ts'

/**
 * INSTALL.md from nothing (issue 15, item 3): every command marked `# runs: in the install walkthrough`, verbatim and
 * in order, in one bash with an empty HOME and a PATH of the system's own (Node 20, npm), up to `dsh web` answering
 * HTTP on loopback. The clone step's placeholder URL becomes this checkout (`git clone <checkout>`, so the clone holds
 * the committed tree). Only download caches are shared with the caller (the pnpm store, npm's cache), so that the run
 * does not fetch the whole of DSH and the workspace again.
 *
 * Stock: steps 1–2 (DeepSeek Harness alone) and `dsh web`. Hardened: steps 1–4 in a second empty HOME (DSH, the
 * overlay from the clone through the local registry, `dsh-harden doctor`, `dsh web`).
 */
const MARKER = 'the install walkthrough'
/** The rows INSTALL.md step 3's packages insert and turn on: the overlay's three, tool-bash, tool-fs, mcp-client. */
const ACTIVE_ROWS = [
  'dsh-harden',
  'dsh-harden-early',
  'dsh-harden-web',
  'dsh-harden-tool-bash',
  'dsh-harden-tool-fs',
  'dsh-harden-mcp-intake',
]
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin'
const WALKTHROUGH_TIMEOUT_MS = 20 * 60_000
const SERVING = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/

function installSteps(): { readonly steps: ShellExample[]; readonly clone: ShellExample | undefined } {
  const text = readFileSync(join(WORKSPACE_ROOT, 'INSTALL.md'), 'utf8')
  const examples = shellExamples('INSTALL.md', text, WORKSPACE_ROOT)
  return {
    steps: examples.filter((example) => example.marker?.kind === 'runs' && example.marker.where === MARKER),
    clone: examples.find((example) => example.command.startsWith('git clone ')),
  }
}

/** The caller's download caches and network settings; nothing else of its environment. */
function walkthroughEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { HOME: home, PATH: SYSTEM_PATH, LANG: 'C.UTF-8', TERM: 'dumb' }
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|https?_proxy|no_proxy)$/i.test(key))
      env[key] = value
  const store = execFileSync('pnpm', ['store', 'path'], { encoding: 'utf8' }).trim()
  env.npm_config_store_dir = dirname(store)
  env.npm_config_cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim()
  return env
}

interface LegRun {
  readonly exitCode: number | null
  /** The `dsh web` URL the script printed, if it got that far. */
  readonly url: string | undefined
  readonly http: string | undefined
  readonly output: string
  readonly timedOut: boolean
}

/** Runs the script; once `dsh web` prints its URL, one GET of it, then the whole process group is stopped. */
function runLeg(script: string, home: string, logFile: string, label: string): Promise<LegRun> {
  appendFileSync(logFile, `\n=== install walkthrough (${label})\n${script}\n`)
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: home,
      env: walkthroughEnv(home),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    let url: string | undefined
    let http: string | undefined
    let timedOut = false
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, WALKTHROUGH_TIMEOUT_MS)
    const read = (chunk: Buffer) => {
      appendFileSync(logFile, chunk)
      output = `${output}${chunk.toString('utf8')}`.slice(-200_000)
      const found = url === undefined ? SERVING.exec(output)?.[1] : undefined
      if (found === undefined) return
      url = found
      fetch(url)
        .then(async (response) => {
          const body = await response.text()
          http = `GET ${url} → ${response.status} ${response.headers.get('content-type') ?? ''}, ${/<html/i.test(body) ? 'an HTML page' : `${body.length} bytes`}`
        })
        .catch((error: unknown) => {
          http = `GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`
        })
        .finally(stop)
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      stop()
      resolve({ exitCode, url, http, output, timedOut })
    })
  })
}

const served = (leg: LegRun): boolean =>
  leg.http !== undefined && / → 200 /.test(leg.http) && /HTML/.test(leg.http)

function observed(leg: LegRun, what: string): Observed {
  if (served(leg)) return { outcome: 'serves', works: true, detail: `${what}; ${leg.http}` }
  const last = leg.output.trimEnd().split('\n').slice(-3).join(' | ')
  return {
    outcome: leg.timedOut ? 'timed-out' : 'does-not-serve',
    works: false,
    detail: `${what}; ${leg.timedOut ? `timed out after ${WALKTHROUGH_TIMEOUT_MS / 60_000} min` : `bash exit ${leg.exitCode}`}${leg.http === undefined ? '' : `; ${leg.http}`}: ${last}`,
  }
}

export async function installWalkthroughRow(logFile: string): Promise<Row> {
  const { steps, clone } = installSteps()
  const root = mkdtempSync(join(tmpdir(), 'dsh-harden-walkthrough-'))
  try {
    const dshOnly = steps.filter((step) => /^[12]\./.test(step.section))
    const serve = steps.at(-1)
    const stockHome = join(root, 'stock-home')
    mkdirSync(stockHome)
    const stockScript = [
      'set -euo pipefail',
      ...dshOnly.map((step) => step.command),
      serve?.command ?? 'false',
    ]
    const stock = await runLeg(stockScript.join('\n'), stockHome, logFile, 'steps 1–2, then dsh web')
    const home = join(root, 'home')
    mkdirSync(home)
    const cloneCommand = clone?.command.replace("<this repository's URL>", WORKSPACE_ROOT)
    const script = ['set -euo pipefail', ...dshOnly.map((step) => step.command), cloneCommand ?? 'false']
    script.push(...steps.filter((step) => !dshOnly.includes(step)).map((step) => step.command))
    const hardened = await runLeg(script.join('\n'), home, logFile, 'steps 1–4')
    const checks: Check[] = [
      {
        what: `INSTALL.md marks ${steps.length} commands for the walkthrough, the last one \`dsh web\``,
        ok: steps.length > 0 && serve?.command === 'dsh web',
      },
      {
        what: 'doctor, run by the walkthrough before `dsh web`, reported `doctor: DSH starts and the overlay runs`',
        ok: hardened.output.includes('doctor: DSH starts and the overlay runs'),
      },
    ]
    // Each row the packages of step 3 bring, on as doctor reads the composed profile (lazy-mcp's ships off, a warning).
    for (const id of ACTIVE_ROWS)
      checks.push({
        what: `doctor says the ${id} row is on and its module resolves (\`ok   row: … the ${id} row …\`)`,
        ok: new RegExp(`^ok\\s+row: profile web: the ${id} row .* is on`, 'm').test(hardened.output),
      })
    checks.push({
      what: 'doctor says the lazy-mcp row is off until its servers are named (a warning, not a failure)',
      ok: /^warn\s+row: profile web: the lazy-mcp row .* is off/m.test(hardened.output),
    })
    const peers = [
      ...new Set([...hardened.output.matchAll(/missing peer (@?[^@\s]+)@/g)].map((match) => match[1]!)),
    ]
    if (peers.length > 0)
      checks.push({
        what: `the add printed \`✕ missing peer\` for ${peers.join(', ')}; doctor's package lines say where each comes from`,
        ok: hardened.output.includes("its peers come from DSH's install"),
      })
    return {
      id: 'app-install-walkthrough',
      group: GROUP,
      kind: 'guard',
      proves:
        'INSTALL.md, run verbatim from an empty HOME, installs DSH 0.1.0-rc.8 so that `dsh web` serves, and with every package of ours active (as doctor reads the profile) still serves',
      source: 'issue 15 (item 3)',
      stock: observed(stock, `steps 1–2 (${dshOnly.length} commands), then \`dsh web\``),
      hardened: observed(hardened, `steps 1–4 (${steps.length} commands and the clone)`),
      checks,
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
