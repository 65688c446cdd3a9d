import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { Context } from '@deepseek-ai/cordis'
import * as McpClient from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { TolerantIntake } from '@dsh-harden/mcp-client'
import { HardenOverlay } from '@dsh-harden/overlay'
import type { CheckTarget } from '../target.ts'
import type { DshRunOptions } from './dsh-client.ts'
import { type ClientVerdict, describeSdkError, messageOf, packageVersion, within } from './verdict.ts'

const DSH_VERSION = packageVersion('@deepseek-ai/dsh-mcp-client', '')
const SERVER_NAME = 'checked'
const PREFIX = `mcp__${SERVER_NAME}__`

interface LogLine {
  readonly type: string
  readonly text: string
}

interface ToolsService {
  wireSchemas(): { knownNames: readonly string[] }
}

const scratch = mkdtempSync(join(tmpdir(), 'dsh-harden-check-dsh-'))
const PID_FILE = join(scratch, 'server.pid')

/** The server's pid, as the wrapper recorded it before `exec` (the exec'd server keeps it). */
function serverPid(): number | undefined {
  try {
    const pid = Number(readFileSync(PID_FILE, 'utf8'))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** dsh-mcp-client's config for the target; reconnects off, so a failure is reported once instead of retried. */
function pluginConfig(target: CheckTarget, timeoutMs: number): Record<string, unknown> {
  const common = {
    serverName: SERVER_NAME,
    failOnStartupError: false,
    reconnect: { enabled: false },
    toolCallTimeoutMs: timeoutMs,
  }
  if (target.kind === 'http')
    return { ...common, transport: 'streamable-http', url: target.url, headers: { ...target.headers } }
  // DSH lets the server's stderr through to ours; `exec` with stderr to /dev/null keeps the report readable and
  // runs the command exactly as given. The wrapper records the pid so a server DSH cannot shut down (it is still
  // waiting for an initialize reply it cannot read) is stopped when the check ends.
  const posix = process.platform !== 'win32'
  const script = `printf %s $$ > '${PID_FILE.replace(/'/g, `'\\''`)}'; exec "$0" "$@" 2>/dev/null`
  return {
    ...common,
    transport: 'stdio',
    command: posix ? '/bin/sh' : target.command,
    args: posix ? ['-c', script, target.command, ...target.args] : [...target.args],
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  }
}

function clipLog(text: string): string {
  const reason = text.replace(/^mcp-client\([^)]*\): /, '')
  const zod = reason.match(/(\[\s*\{[\s\S]*\])\s*$/)
  const readable =
    zod?.[1] === undefined ? reason : reason.replace(zod[1], describeSdkError(new Error(zod[1])))
  return readable.length > 240 ? `${readable.slice(0, 239)}…` : readable
}

/**
 * A cordis app with SystemPrompt, ToolRuntime and `@deepseek-ai/dsh-mcp-client` (stock), or with the dsh-harden
 * overlay and tolerant intake loaded first, each with its default config as a DSH profile would load it. The verdict
 * is how many `mcp__<server>__*` tools end up registered, and what the bridge logged.
 */
async function run(target: CheckTarget, options: DshRunOptions): Promise<ClientVerdict> {
  const started = performance.now()
  const client = options.hardened ? 'dsh-hardened' : 'dsh-stock'
  const label = `@deepseek-ai/dsh-mcp-client ${DSH_VERSION}${options.hardened ? ' + HardenOverlay + TolerantIntake' : ''}`
  const elapsed = (): number => Math.round(performance.now() - started)
  const app = new Context()
  let stuck = false
  const logs: LogLine[] = []
  app.logger.exporter({
    export: (message: { type: string; args: readonly unknown[] }) => {
      logs.push({
        type: message.type,
        text: message.args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '),
      })
    },
  } as never)
  try {
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
    if (options.hardened) {
      await app.plugin(HardenOverlay)
      await app.plugin(TolerantIntake)
    }
    try {
      await within(
        Promise.resolve(app.plugin(McpClient as never, pluginConfig(target, options.timeoutMs) as never)),
        options.timeoutMs,
        'dsh-mcp-client start-up',
      )
    } catch (error) {
      stuck = /no answer within/.test(messageOf(error))
      if (!stuck) logs.push({ type: 'error', text: messageOf(error) })
    }
    const tools = (app as unknown as { tools: ToolsService }).tools
      .wireSchemas()
      .knownNames.filter((name) => name.startsWith(PREFIX)).length
    const complaints = logs.filter((line) => line.type === 'error' || line.type === 'warn')
    const said =
      complaints.length === 0
        ? ''
        : `; it logged: ${clipLog(complaints[0]!.text)}${complaints.length > 1 ? ` (+${complaints.length - 1} more)` : ''}`
    if (tools > 0)
      return {
        client,
        label,
        status: 'accepted',
        tools,
        detail: `${tools} ${tools === 1 ? 'tool' : 'tools'} registered${said}`,
        elapsedMs: elapsed(),
      }
    if (stuck)
      return {
        client,
        label,
        status: 'failed',
        tools: 0,
        detail: `no tools registered: still connecting after ${options.timeoutMs} ms (a reply the SDK cannot read is dropped; DSH waits out the SDK's 60 s request timeout)${said}`,
        elapsedMs: elapsed(),
      }
    return {
      client,
      label,
      status: 'rejected',
      tools: 0,
      detail: `0 tools registered${said}`,
      elapsedMs: elapsed(),
    }
  } catch (error) {
    return {
      client,
      label,
      status: 'failed',
      detail: `the DSH runtime failed: ${messageOf(error)}`,
      elapsedMs: elapsed(),
    }
  } finally {
    await shutDown(app, stuck)
  }
}

/**
 * Disposal closes the bridge, which stops the server. A bridge still waiting for an initialize reply does not close
 * until the SDK's request timeout, so such a server is stopped by pid first, which ends the wait.
 */
async function shutDown(app: Context, stuck: boolean): Promise<void> {
  if (stuck) stopServer()
  const disposed = Promise.resolve(app.fiber.dispose()).catch(() => {})
  const quick = await within(
    disposed.then(() => true),
    1000,
    'dispose',
  ).catch(() => false)
  if (!quick) {
    stopServer()
    await within(disposed, 2000, 'dispose').catch(() => {})
  }
  rmSync(scratch, { recursive: true, force: true })
}

function stopServer(): void {
  const pid = serverPid()
  if (pid === undefined) return
  signal(pid, 'SIGTERM')
  // The server gets a moment for SIGTERM; whatever is left then is killed.
  setTimeout(() => signal(pid, 'SIGKILL'), 300).unref()
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {}
}

const { target, options } = workerData as { target: CheckTarget; options: DshRunOptions }
parentPort?.postMessage(await run(target, options))
