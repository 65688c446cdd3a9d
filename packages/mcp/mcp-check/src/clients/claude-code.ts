import { accessSync, constants } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { CheckTarget } from '../target.ts'
import { runGrouped } from '../wire/processes.ts'
import type { ClientVerdict } from './verdict.ts'

const NAME = 'checked'

/** `claude` on PATH, or `undefined`. */
export function findClaude(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, 'claude')
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  return undefined
}

function serverJson(target: CheckTarget): string {
  if (target.kind === 'http')
    return JSON.stringify({ type: 'http', url: target.url, headers: { ...target.headers } })
  return JSON.stringify({
    type: 'stdio',
    command: target.command,
    args: [...target.args],
    env: { ...target.env },
  })
}

/** The `Status:` and `Issue:` lines of `claude mcp get`, read into a verdict. */
export function parseClaudeGet(stdout: string): Pick<ClientVerdict, 'status' | 'detail'> {
  const status = stdout.match(/^\s*Status:\s*(.+)$/m)?.[1]?.trim()
  const issue = stdout.match(/^\s*Issue:\s*(.+)$/m)?.[1]?.trim()
  if (status === undefined)
    return {
      status: 'failed',
      detail: `no Status line in \`claude mcp get\`: ${stdout.trim().slice(0, 200)}`,
    }
  const said = `\`claude mcp get\`: ${status}${issue === undefined ? '' : `; Issue: ${issue}`}`
  if (/tools fetch failed/i.test(status)) return { status: 'rejected', detail: said }
  if (/✔|^Connected/.test(status) && !/fail/i.test(status)) return { status: 'accepted', detail: said }
  return { status: 'failed', detail: said }
}

/**
 * Claude Code as a strict client, offline and without an API key: the server is added at local scope with a throwaway
 * HOME, and `claude mcp get` runs the same health check as `claude mcp list` (initialize, initialized, tools/list)
 * and prints the status, plus the first validation issue when the tool list is refused. It exits 0 either way, so
 * the text is the verdict.
 */
export async function claudeCodeVerdict(
  target: CheckTarget,
  options: { claude: string | undefined; timeoutMs: number },
): Promise<ClientVerdict> {
  const started = performance.now()
  const elapsed = (): number => Math.round(performance.now() - started)
  if (options.claude === undefined)
    return {
      client: 'claude-code',
      label: 'Claude Code',
      status: 'unavailable',
      detail: 'not installed (no `claude` on PATH; pass --claude <path>)',
      elapsedMs: elapsed(),
    }
  const home = await mkdtemp(join(tmpdir(), 'dsh-harden-claude-'))
  // Claude Code runs in the checker's working directory, so a relative command or argument means what it means
  // to the other clients. Local scope keeps everything it writes in the throwaway HOME (~/.claude.json).
  const project = target.kind === 'stdio' && target.cwd !== undefined ? target.cwd : process.cwd()
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    MCP_TIMEOUT: String(options.timeoutMs),
  }
  const run = (args: readonly string[]) =>
    runGrouped(options.claude!, args, { env, cwd: project, timeoutMs: options.timeoutMs + 5000 })
  let label = 'Claude Code'
  try {
    const version = await run(['--version'])
    label = `Claude Code ${version.stdout.trim().split(/\s/)[0] ?? ''}`.trim()
    if (version.code !== 0)
      return {
        client: 'claude-code',
        label,
        status: 'unavailable',
        detail: `\`claude --version\` failed: ${(version.stderr || version.stdout).trim().slice(0, 200)}`,
        elapsedMs: elapsed(),
      }
    const added = await run(['mcp', 'add-json', '-s', 'local', NAME, serverJson(target)])
    if (added.code !== 0)
      return {
        client: 'claude-code',
        label,
        status: 'failed',
        detail: `\`claude mcp add-json\` failed: ${(added.stderr || added.stdout).trim().slice(0, 200)}`,
        elapsedMs: elapsed(),
      }
    const got = await run(['mcp', 'get', NAME])
    if (got.timedOut)
      return {
        client: 'claude-code',
        label,
        status: 'failed',
        detail: '`claude mcp get` did not finish',
        elapsedMs: elapsed(),
      }
    return { client: 'claude-code', label, ...parseClaudeGet(got.stdout), elapsedMs: elapsed() }
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}
