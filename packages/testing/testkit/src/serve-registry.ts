/**
 * `pnpm local-registry` (root script): the install route that works from a clone before we publish. Starts the local
 * verdaccio of ./local-registry.ts, publishes this checkout's packages to it, prints the `.npmrc` line, then either
 * runs one command with our scope routed to it and stops (`pnpm local-registry -- dsh plugin --profile p add
 * @dsh-harden/overlay`), or keeps serving until Ctrl-C.
 */
import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import {
  type LocalRegistry,
  publishWorkspacePackages,
  REGISTRY_SCOPE,
  scopeNpmrc,
  startLocalRegistry,
} from './local-registry.ts'

const USAGE = 'usage: pnpm local-registry [--port <n>] [--storage <dir>] [-- <command> [args...]]'

function fail(message: string): never {
  process.stderr.write(`local-registry: ${message}\n${USAGE}\n`)
  process.exit(2)
}

function readArgs(argv: readonly string[]) {
  // pnpm passes a leading `--` through; everything after the next `--` is the command to run.
  const given = argv[0] === '--' ? argv.slice(1) : [...argv]
  const split = given.indexOf('--')
  const own = split === -1 ? given : given.slice(0, split)
  const command = split === -1 ? [] : given.slice(split + 1)
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

/** Runs `command` with our scope routed to the registry (npm and pnpm read `npm_config_<key>` from the environment). */
function runWith(registry: LocalRegistry, command: readonly string[]): Promise<number> {
  const env = { ...process.env, [`npm_config_${REGISTRY_SCOPE}:registry`]: registry.url }
  return new Promise((resolve) => {
    // pnpm runs the root script in the repository root; the command runs where the user typed it.
    const cwd = process.env.INIT_CWD ?? process.cwd()
    const child = spawn(command[0] ?? '', command.slice(1), { stdio: 'inherit', env, cwd })
    child.once('error', (error) => {
      process.stderr.write(`local-registry: cannot run ${command[0]}: ${error.message}\n`)
      resolve(127)
    })
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })
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
  const published = await publishWorkspacePackages(registry)
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
