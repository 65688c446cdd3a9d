import type { CallPolicy, CheckOptions, CheckTarget } from '@dsh-harden/mcp-check'
import { type Command, EXIT_UNUSABLE, type Io, parseOptions, UsageError, usageFailure } from '../command.ts'

const usage = `Usage: dsh-harden mcp check [options] -- <command> [args…]
       dsh-harden mcp check [options] --url <url>

Checks an MCP server against the spec and runs real clients against it: initialize and protocol-version
negotiation, JSON-RPC 2.0 envelopes and integer error codes, unknown method -> -32601, ping, every tool's
inputSchema/outputSchema, tools/call results wrapped in content; then the official SDK client, DSH's
dsh-mcp-client (stock, and with the dsh-harden overlay and tolerant intake), Claude Code when a \`claude\` binary
is found, and each model route's verdict on the tool schemas. Every wait is bounded: a server that hangs is a
finding, not a hang.

Which tools are called (tools/call can have side effects): by default only tools annotated readOnlyHint: true
(and not destructiveHint) that need no arguments, plus a probe for a tool that does not exist.

Options:
  --url <url>             a Streamable HTTP endpoint instead of a command
  --header 'Name: value'  an HTTP header for every client (repeatable)
  --env KEY=VALUE         extra environment for the server (repeatable)
  --cwd <dir>             working directory for the server
  --call <tool>[=<json>]  also call this tool, with these arguments (default: synthesized) (repeatable)
  --call-all              call every tool, with arguments synthesized from its schema (side effects!)
  --no-call               call no listed tool (the unknown-tool probe still runs)
  --no-clients            spec checks only; skip the real clients
  --claude <path>         the Claude Code binary (default: \`claude\` on PATH); --no-claude skips it
  --timeout <ms>          bound on each request (default 5000)
  --init-timeout <ms>     bound on initialize, which includes start-up (default 10000)
  --call-timeout <ms>     bound on each tools/call (default 2000)
  --client-timeout <ms>   bound on each real client's connect + list (default 5000)
  --json                  print the report as JSON
  --no-conformance        with --url: skip the official conformance suite (@modelcontextprotocol/conformance),
                          which otherwise runs beside these checks when it is installed (informational; up to 4 min)
  -h, --help              show this help

Exit codes: 0 conformant (warnings allowed); 1 a spec violation; 2 bad usage, or nothing answered at all
(the command could not be started, or nothing listens at the URL).
`

export const checkCommand: Command = {
  name: 'check',
  summary: 'conformance report for an MCP server, with verdicts from real clients',
  usage,
  run: runCheck,
}

interface Parsed {
  readonly target: CheckTarget
  readonly options: CheckOptions
  readonly json: boolean
  /** `--url` only: also run the official conformance suite when it is installed (off with --no-conformance). */
  readonly conformance: boolean
}

async function runCheck(args: readonly string[], io: Io): Promise<number> {
  let parsed: Parsed | 'help'
  try {
    parsed = parse(args, io.cwd)
  } catch (error) {
    return usageFailure(io, 'mcp check', error)
  }
  if (parsed === 'help') {
    io.stdout(usage)
    return 0
  }
  // Loaded on use, so the other commands never load the MCP SDK and DSH's MCP bridge.
  const mcpCheck = await import('@dsh-harden/mcp-check')
  const report = await mcpCheck.checkServer(parsed.target, parsed.options)
  const suite =
    report.reachable && parsed.conformance && parsed.target.kind === 'http'
      ? await runSuite(mcpCheck, parsed.target.url)
      : undefined
  if (parsed.json)
    io.stdout(`${JSON.stringify(suite ? { ...report, conformance: suite.json } : report, null, 2)}\n`)
  if (!report.reachable) {
    // Nothing answered, so a report of failed checks would blame the server for what is the command line's problem.
    const why = report.checks[0]?.findings[0]?.message ?? 'the server could not be reached'
    io.stderr(`dsh-harden mcp check: nothing answered: ${why}${unreachableFix(parsed.target, why)}\n`)
    return EXIT_UNUSABLE
  }
  if (!parsed.json) io.stdout(mcpCheck.renderReport(report) + (suite?.text ?? ''))
  return report.conformant ? 0 : 1
}

type McpCheck = typeof import('@dsh-harden/mcp-check')

/**
 * The official suite as a second, outside judge, reported beside our checks; it does not change our verdict or exit
 * code (its fixture scenarios need tools most servers do not have).
 */
async function runSuite(
  mcpCheck: McpCheck,
  url: string,
): Promise<{ text: string; json: unknown } | undefined> {
  const found = mcpCheck.findConformanceSuite()
  if (found === undefined) return undefined
  const run = await mcpCheck.runConformanceSuite(url, { suite: found, timeoutMs: 240_000 })
  const scenarios = [...run.scenarios].map(
    ([name, tally]) => `  ${name}: ${tally.passed} passed, ${tally.failed} failed`,
  )
  const text = `\nOfficial conformance suite (outside judge, informational)\n  ${mcpCheck.describeConformanceRun(run)}\n${scenarios.join('\n')}\n`
  return { text, json: { ...run, scenarios: Object.fromEntries(run.scenarios) } }
}

/**
 * What to check when nothing listens at the URL. A stdio command's failure (not found, exited at once) already
 * comes with its fix from @dsh-harden/mcp-check.
 */
function unreachableFix(target: CheckTarget, why: string): string {
  if (target.kind !== 'http' || !/fetch failed|ECONNREFUSED|ENOTFOUND/i.test(why)) return ''
  return `; check that an MCP server listens at ${target.url}`
}

function milliseconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = Number(value)
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`--${name} takes a positive number of milliseconds, got ${JSON.stringify(value)}`)
  return ms
}

function pairs(
  values: readonly string[] | undefined,
  separator: string,
  what: string,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const value of values ?? []) {
    const at = value.indexOf(separator)
    if (at <= 0)
      throw new UsageError(
        `${what} takes ${separator === '=' ? 'KEY=VALUE' : "'Name: value'"}, got ${JSON.stringify(value)}`,
      )
    out[value.slice(0, at).trim()] = value.slice(at + 1).trim()
  }
  return out
}

function callPolicy(values: { call?: string[]; 'call-all'?: boolean; 'no-call'?: boolean }): CallPolicy {
  if (values['call-all'] && values['no-call'])
    throw new UsageError('--call-all and --no-call contradict each other')
  const named = new Map<string, Record<string, unknown> | undefined>()
  for (const spec of values.call ?? []) {
    const at = spec.indexOf('=')
    if (at === -1) {
      named.set(spec, undefined)
      continue
    }
    let args: unknown
    try {
      args = JSON.parse(spec.slice(at + 1))
    } catch {
      throw new UsageError(`--call ${spec.slice(0, at)}=… takes a JSON object of arguments`)
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new UsageError(`--call ${spec.slice(0, at)}=… takes a JSON object of arguments`)
    named.set(spec.slice(0, at), args as Record<string, unknown>)
  }
  return { mode: values['call-all'] ? 'all' : values['no-call'] ? 'none' : 'read-only', named }
}

function parse(args: readonly string[], cwd: string): Parsed | 'help' {
  const { values, positionals } = parseOptions({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      header: { type: 'string', multiple: true },
      env: { type: 'string', multiple: true },
      cwd: { type: 'string' },
      call: { type: 'string', multiple: true },
      'call-all': { type: 'boolean' },
      'no-call': { type: 'boolean' },
      'no-clients': { type: 'boolean' },
      claude: { type: 'string' },
      'no-claude': { type: 'boolean' },
      timeout: { type: 'string' },
      'init-timeout': { type: 'string' },
      'call-timeout': { type: 'string' },
      'client-timeout': { type: 'string' },
      json: { type: 'boolean' },
      'no-conformance': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  let target: CheckTarget
  if (values.url !== undefined) {
    if (positionals.length > 0) throw new UsageError('give either --url or a command after --, not both')
    let url: URL
    try {
      url = new URL(values.url)
    } catch {
      throw new UsageError(`--url ${JSON.stringify(values.url)} is not a URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError('--url must be http:// or https://')
    const headers = pairs(values.header, ':', '--header')
    target = { kind: 'http', url: url.href, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
  } else {
    const [command, ...rest] = positionals
    if (command === undefined)
      throw new UsageError('missing the server: give a command after --, or --url <url>')
    const env = pairs(values.env, '=', '--env')
    target = {
      kind: 'stdio',
      command,
      args: rest,
      ...(Object.keys(env).length > 0 ? { env } : {}),
      cwd: values.cwd ?? cwd,
    }
  }
  if (values.claude !== undefined && values['no-claude'])
    throw new UsageError('--claude and --no-claude contradict each other')
  return {
    target,
    json: values.json === true,
    conformance: values['no-conformance'] !== true,
    options: {
      timeoutMs: milliseconds('timeout', values.timeout),
      initializeTimeoutMs: milliseconds('init-timeout', values['init-timeout']),
      callTimeoutMs: milliseconds('call-timeout', values['call-timeout']),
      clientTimeoutMs: milliseconds('client-timeout', values['client-timeout']),
      calls: callPolicy(values),
      clients: values['no-clients'] !== true,
      claude: values['no-claude'] ? false : values.claude,
    },
  }
}
