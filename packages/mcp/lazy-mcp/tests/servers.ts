import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { StdioServerConfig } from '../src/index.ts'

const require = createRequire(import.meta.url)

/** Absolute path of an installed package's bin JS (never npx: there is no network). */
export function packageBin(name: string, relative: string): string {
  return resolve(dirname(require.resolve(`${name}/package.json`)), relative)
}

export const EVERYTHING_BIN = packageBin('@modelcontextprotocol/server-everything', 'dist/index.js')
export const TINY_SERVER = fileURLToPath(new URL('./fixtures/tiny-server.mjs', import.meta.url))

export function everything(name = 'everything', extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    lifecycle: 'lazy',
    command: process.execPath,
    args: [EVERYTHING_BIN, 'stdio'],
    env: {},
    ...extra,
  }
}

export function tiny(name = 'tiny', extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    lifecycle: 'lazy',
    command: process.execPath,
    args: [TINY_SERVER],
    env: {},
    ...extra,
  }
}

export async function tempDir(
  prefix = 'lazy-mcp-test-',
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}

const HANG_MS = 60_000

/**
 * Polls `check` every 25 ms until it holds and returns how long that took, or -1 past `HANG_MS`: a hang detector, far above any
 * machine's time for what the tests wait on (a busy 2-core machine runs them several times slower than a quiet one).
 */
export async function until(check: () => boolean): Promise<number> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > HANG_MS) return -1
    await sleep(25)
  }
  return Date.now() - started
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })
}

/** server-everything in Streamable HTTP mode on a free loopback port; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  await new Promise<void>((done, fail) => {
    let seen = ''
    const timer = setTimeout(() => fail(new Error(`server-everything did not listen: ${seen}`)), 15_000)
    const watch = (chunk: Buffer) => {
      seen += chunk.toString()
      if (/listening on port/i.test(seen)) {
        clearTimeout(timer)
        done()
      }
    }
    child.stderr.on('data', watch)
    child.stdout.on('data', watch)
    child.once('exit', () => fail(new Error(`server-everything exited: ${seen}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      child.kill('SIGTERM')
      await Promise.race([exited, sleep(3000)])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}
