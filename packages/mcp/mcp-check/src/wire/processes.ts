import { type ChildProcess, spawn } from 'node:child_process'

/**
 * Server processes are started in their own process group so a wrapper (`sh -c`, `npx`) is stopped with everything
 * it started; a group still alive when the checker exits is killed then, so no run leaves an orphan behind.
 */
const liveGroups = new Set<number>()
let exitHookInstalled = false

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal)
  } catch {}
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL')
  })
}

export interface SpawnedServer {
  readonly child: ChildProcess
  readonly pid: number | null
  /** Resolves when the process has exited (or could not start). */
  readonly exited: Promise<void>
  /** End stdin, then SIGTERM, then SIGKILL the whole group; resolves once the process is gone. */
  stop(): Promise<void>
}

export function spawnServer(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string | undefined },
): SpawnedServer {
  installExitHook()
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  })
  const pid = child.pid ?? null
  if (pid !== null) liveGroups.add(pid)
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve())
    child.once('error', () => resolve())
  })
  void exited.then(() => {
    if (pid !== null) {
      // The leader is gone; take down anything it left in its group.
      killGroup(pid, 'SIGKILL')
      liveGroups.delete(pid)
    }
  })
  child.stdin?.on('error', () => {})
  const gone = (ms: number): Promise<boolean> =>
    Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
    ])
  return {
    child,
    pid,
    exited,
    async stop() {
      if (pid === null) return
      if (child.exitCode === null && child.signalCode === null) {
        try {
          child.stdin?.end()
        } catch {}
        // The spec's shutdown for stdio: close stdin, then SIGTERM, then SIGKILL. The checker holds no state the
        // server must flush, so the graces are short.
        if (!(await gone(300))) {
          killGroup(pid, 'SIGTERM')
          if (!(await gone(1000))) {
            killGroup(pid, 'SIGKILL')
            await gone(2000)
          }
        }
      }
      killGroup(pid, 'SIGKILL')
      liveGroups.delete(pid)
    },
  }
}

export interface GroupedRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
}

/**
 * Runs a command to completion in its own process group, bounded in time; whatever it started (a health-checked
 * MCP server, say) is killed with the group when it exits or times out.
 */
export function runGrouped(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number },
): Promise<GroupedRun> {
  const server = spawnServer(command, args, { env: options.env, cwd: options.cwd })
  server.child.stdin?.end()
  let stdout = ''
  let stderr = ''
  server.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  server.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    void server.stop()
  }, options.timeoutMs)
  let spawnError: string | undefined
  server.child.once('error', (error) => {
    spawnError = error.message
  })
  return server.exited.then(async () => {
    clearTimeout(timer)
    await server.stop()
    return {
      code: server.child.exitCode,
      stdout,
      stderr: spawnError === undefined ? stderr : `${stderr}${spawnError}`,
      timedOut,
    }
  })
}
