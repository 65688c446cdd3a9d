/**
 * `pnpm local-registry` (root script): the install route that works from a clone before we publish. Starts the local
 * verdaccio of ./local-registry.ts, publishes this checkout's packages to it, prints the `.npmrc` line, then either
 * runs one command with our scope routed to it (a temp userconfig) and stops (`pnpm local-registry -- dsh plugin --profile p add
 * @dsh-harden/overlay`), or keeps serving until Ctrl-C.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  type LocalRegistry,
  publishWorkspacePackages,
  scopeNpmrc,
  startLocalRegistry,
} from './local-registry.ts'

const USAGE = 'usage: pnpm local-registry [--port <n>] [--storage <dir>] [-- <command> [args...]]'

function fail(message: string): never {
  process.stderr.write(`local-registry: ${message}\n${USAGE}\n`)
  process.exit(2)
}

function readArgs(argv: readonly string[]) {
  // Everything after the first `--` is the command to run (pnpm passes that `--` through).
  const split = argv.indexOf('--')
  const own = split === -1 ? [...argv] : argv.slice(0, split)
  const command = split === -1 ? [] : argv.slice(split + 1)
  let values: { port?: string | undefined; storage?: string | undefined }
  try {
    ;({ values } = parseArgs({
      args: own,
      options: { port: { type: 'string' }, storage: { type: 'string' } },
    }))
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port))
    fail(`--port ${values.port} is not a port number`)
  return { port: values.port === undefined ? 0 : Number(values.port), storage: values.storage, command }
}

/**
 * A temp userconfig: the user's own npm config with the scope line after it. npm and pnpm (also the pnpm that `dsh
 * plugin` runs) read it through NPM_CONFIG_USERCONFIG; a scoped registry in an environment variable pnpm ignores.
 */
async function scopedUserconfig(registry: LocalRegistry, dir: string): Promise<string> {
  const current =
    process.env.NPM_CONFIG_USERCONFIG ?? process.env.npm_config_userconfig ?? join(homedir(), '.npmrc')
  const own = existsSync(current) ? await readFile(current, 'utf8') : ''
  const file = join(dir, '.npmrc')
  await writeFile(file, `${own}${own === '' || own.endsWith('\n') ? '' : '\n'}${scopeNpmrc(registry)}`, {
    mode: 0o600,
  })
  return file
}

/** Runs `command` where the user typed it, with our scope routed to the registry; resolves to its exit code. */
async function runWith(registry: LocalRegistry, command: readonly string[]): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-harden-userconfig-'))
  try {
    const userconfig = await scopedUserconfig(registry, dir)
    // Without pnpm's own run context (`npm_config_*`, `npm_package_*`, …), which npm would read as its config.
    const env: NodeJS.ProcessEnv = { NPM_CONFIG_USERCONFIG: userconfig }
    for (const [key, value] of Object.entries(process.env))
      if (!/^npm_/.test(key) && !(key in env)) env[key] = value
    // pnpm runs the root script in the repository root; INIT_CWD is where the user typed `pnpm local-registry`.
    const cwd = process.env.INIT_CWD ?? process.cwd()
    return await new Promise((resolve) => {
      const child = spawn(command[0] ?? '', command.slice(1), { stdio: 'inherit', env, cwd })
      child.once('error', (error) => {
        process.stderr.write(`local-registry: cannot run ${command[0]}: ${error.message}\n`)
        resolve(127)
      })
      child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
}

const { port, storage, command } = readArgs(process.argv.slice(2))
const registry = await startLocalRegistry({ port, ...(storage === undefined ? {} : { storage }) })
let exitCode = 0
try {
  process.stderr.write(
    `local-registry: verdaccio at ${registry.url}; building and publishing this checkout…\n`,
  )
  const published = await publishWorkspacePackages(registry, (line) =>
    process.stderr.write(`local-registry: ${line}\n`),
  )
  process.stderr.write(
    `local-registry: published ${published.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ')}\n`,
  )
  process.stderr.write(`local-registry: the .npmrc line for a DSH profile or any npm/pnpm project:\n`)
  process.stdout.write(scopeNpmrc(registry))
  if (command.length > 0) exitCode = await runWith(registry, command)
  else {
    process.stderr.write('local-registry: serving until Ctrl-C\n')
    await untilInterrupted()
  }
} catch (error) {
  process.stderr.write(`local-registry: ${error instanceof Error ? error.message : String(error)}\n`)
  exitCode = 1
} finally {
  await registry.close()
}
process.exit(exitCode)
