import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { childEnv, type DshApp, type DshHome } from '@dsh-harden/testkit/dsh-app'

/**
 * `dsh web --no-open --port <p>` of the real app (rc.8 `apps/cli`, the `web` alias of `--profile web`), run from the
 * home's workspace against the local DeepSeek endpoint, until `close()`. Ready when it prints its URL line
 * (`dsh web: http://127.0.0.1:<p>`), which rc.8 prints once the whole loader tree has settled.
 */
export interface WebApp {
  readonly url: string
  close(): Promise<void>
}

const READY_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 10_000
/** A dummy key: the local endpoint ignores it, and DSH refuses to send a request without one. */
const LOCAL_API_KEY = 'sk-dsh-harden-local'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()))
    })
  })
}

export async function startDshWeb(app: DshApp, home: DshHome, baseURL: string): Promise<WebApp> {
  const port = await freePort()
  const env = childEnv(
    process.env,
    { DSH_HOME: home.dir, DEEPSEEK_API_KEY: LOCAL_API_KEY, DEEPSEEK_BASE_URL: baseURL },
    [app.binDir],
  )
  appendFileSync(home.logFile, `\n=== dsh web --no-open --port ${port}\n`)
  const child = spawn(join(app.binDir, 'dsh'), ['web', '--no-open', '--port', String(port)], {
    cwd: home.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
  const close = async () => {
    killGroup('SIGTERM')
    const timer = setTimeout(() => killGroup('SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    const timer = setTimeout(
      () =>
        reject(
          new Error(`dsh web printed no URL within ${READY_TIMEOUT_MS} ms; its output is in ${home.logFile}`),
        ),
      READY_TIMEOUT_MS,
    )
    child.stdout.on('data', (chunk: Buffer) => {
      appendFileSync(home.logFile, chunk)
      stdout += chunk.toString('utf8')
      const match = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
      if (match === null) return
      clearTimeout(timer)
      resolve(match[1]!)
    })
    child.stderr.on('data', (chunk: Buffer) => appendFileSync(home.logFile, chunk))
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      reject(
        new Error(
          `dsh web exited (${signal ?? `exit ${code}`}) before serving; its output is in ${home.logFile}`,
        ),
      )
    })
  }).catch(async (error: unknown) => {
    await close()
    throw error
  })
  return { url, close }
}
