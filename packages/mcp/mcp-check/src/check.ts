import { type CallPolicy, DEFAULT_CALL_POLICY, type SkippedCall } from './calls.ts'
import { claudeCodeVerdict, findClaude } from './clients/claude-code.ts'
import { dshClientVerdict } from './clients/dsh-client.ts'
import { intakeVerdict } from './clients/intake.ts'
import { type ProfileVerdict, profileVerdicts } from './clients/profiles.ts'
import { sdkClientVerdict } from './clients/sdk-client.ts'
import type { ClientVerdict } from './clients/verdict.ts'
import {
  CHECK_IDS,
  CHECK_TITLES,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  type Finding,
} from './findings.ts'
import { type CallRecord, observeNegotiation, observeProtocol, type ProtocolObservation } from './protocol.ts'
import { type CheckTarget, describeTarget } from './target.ts'

export interface CheckOptions {
  /** Bound on each request after `initialize`, ms. Default 5000. */
  readonly timeoutMs?: number | undefined
  /** Bound on `initialize`, which includes the server's start-up, ms. Default 10000. */
  readonly initializeTimeoutMs?: number | undefined
  /** Bound on each `tools/call` of a listed tool, ms. Default 2000. */
  readonly callTimeoutMs?: number | undefined
  /** Bound on each real client's connect + list, ms. Default 5000. */
  readonly clientTimeoutMs?: number | undefined
  /** Which tools to call (see `CallPolicy`). Default: read-only tools that need no arguments. */
  readonly calls?: CallPolicy | undefined
  /** Run the real clients (SDK, DSH stock and hardened, Claude Code). Default true. */
  readonly clients?: boolean | undefined
  /** Claude Code binary: a path, `false` to skip it, or unset to look for `claude` on PATH. */
  readonly claude?: string | false | undefined
}

export interface CheckReport {
  readonly target: string
  readonly transport: CheckTarget['kind']
  readonly server?: { readonly name: string; readonly version: string } | undefined
  readonly protocolVersion?: string | undefined
  /** The server answered (or at least accepted the connection); false when it could not be started or reached. */
  readonly reachable: boolean
  /** No check failed: not one spec violation. */
  readonly conformant: boolean
  readonly checks: readonly CheckResult[]
  readonly tools: readonly string[]
  readonly calls: readonly CallRecord[]
  readonly skippedCalls: readonly SkippedCall[]
  readonly clients: readonly ClientVerdict[]
  readonly profiles: readonly ProfileVerdict[]
  /** The server's stderr (stdio), last lines, for when something failed. */
  readonly stderrTail: string
  readonly elapsedMs: number
}

const DEFAULTS = { timeoutMs: 5000, initializeTimeoutMs: 10_000, callTimeoutMs: 2000, clientTimeoutMs: 5000 }

/**
 * Checks one server: the raw protocol probe and the version-negotiation probe, and every real client, all at once
 * (each on a connection of its own), every wait bounded. Resolves to the report; never hangs on a silent server.
 */
export async function checkServer(target: CheckTarget, options: CheckOptions = {}): Promise<CheckReport> {
  const started = performance.now()
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs
  const initializeTimeoutMs = options.initializeTimeoutMs ?? DEFAULTS.initializeTimeoutMs
  const clientTimeoutMs = options.clientTimeoutMs ?? DEFAULTS.clientTimeoutMs
  const runClients = options.clients !== false
  const claude = options.claude === false ? false : (options.claude ?? findClaude())

  const protocol = observeProtocol(target, {
    timeoutMs,
    initializeTimeoutMs,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULTS.callTimeoutMs,
    calls: options.calls ?? DEFAULT_CALL_POLICY,
  })
  const negotiation = observeNegotiation(target, { initializeTimeoutMs })
  const clientRuns: Promise<ClientVerdict>[] = runClients
    ? [
        sdkClientVerdict(target, clientTimeoutMs),
        dshClientVerdict(target, { hardened: false, timeoutMs: clientTimeoutMs }),
        dshClientVerdict(target, { hardened: true, timeoutMs: clientTimeoutMs }),
        ...(claude === false ? [] : [claudeCodeVerdict(target, { claude, timeoutMs: clientTimeoutMs })]),
      ]
    : []
  const [observation, negotiationFindings, ...verdicts] = await Promise.all([
    protocol,
    negotiation,
    ...clientRuns,
  ])
  const listedCount = observation.tools.length
  const clients = verdicts.map((verdict) => withPartial(verdict, listedCount))
  if (runClients) {
    // Keep the DSH rows together: stock, hardened, then intake over the list as the raw probe read it.
    const at = clients.findIndex((verdict) => verdict.client === 'dsh-hardened') + 1
    clients.splice(at, 0, intakeVerdict(observation.tools, observation.listed))
  }
  const findings = [...observation.findings, ...negotiationFindings]
  const checks = CHECK_IDS.map((id) =>
    judgeCheck(id, findings, observation, negotiationFindings.length === 0),
  )
  return {
    target: describeTarget(target),
    transport: target.kind,
    server: observation.serverInfo,
    protocolVersion: observation.protocolVersion,
    reachable: observation.reachable,
    conformant: checks.every((check) => check.status !== 'fail'),
    checks,
    tools: observation.tools.map((tool, index) => (typeof tool.name === 'string' ? tool.name : `#${index}`)),
    calls: observation.calls,
    skippedCalls: observation.skippedCalls,
    clients,
    profiles: observation.listed ? profileVerdicts(observation.tools) : [],
    stderrTail: observation.stderr.split('\n').slice(-20).join('\n').trim(),
    elapsedMs: Math.round(performance.now() - started),
  }
}

/** A client that registered fewer tools than the server listed took only part of the list. */
function withPartial(verdict: ClientVerdict, listed: number): ClientVerdict {
  if (verdict.status !== 'accepted' || verdict.tools === undefined || verdict.tools >= listed) return verdict
  return { ...verdict, status: 'partial', detail: `${verdict.detail} (${verdict.tools}/${listed} listed)` }
}

function judgeCheck(
  id: CheckId,
  all: readonly Finding[],
  observation: ProtocolObservation,
  negotiationRan: boolean,
): CheckResult {
  const { title, requirement } = CHECK_TITLES[id]
  const findings = all.filter((finding) => finding.check === id)
  const violations = findings.filter((finding) => finding.severity === 'violation')
  const warnings = findings.filter((finding) => finding.severity === 'warning')
  const reached =
    id === 'version-negotiation' ? negotiationRan || findings.length > 0 : observation.reached.includes(id)
  let status: CheckStatus
  if (violations.length > 0) status = 'fail'
  else if (warnings.length > 0) status = 'warn'
  else if (!reached) status = 'skip'
  else status = 'pass'
  return { id, title, requirement, status, summary: summarize(id, status, findings, observation), findings }
}

function summarize(
  id: CheckId,
  status: CheckStatus,
  findings: readonly Finding[],
  observation: ProtocolObservation,
): string {
  const violations = findings.filter((finding) => finding.severity === 'violation')
  if (status === 'skip') return 'not reached: initialize got no reply'
  const tools = observation.tools.length
  const toolsWith = (severity: Finding['severity']): number =>
    new Set(findings.filter((f) => f.severity === severity && f.tool !== undefined).map((f) => f.tool)).size
  switch (id) {
    case 'initialize':
      return status === 'pass'
        ? `${observation.serverInfo?.name ?? '?'} ${observation.serverInfo?.version ?? ''}`.trim()
        : (violations[0]?.message ?? '')
    case 'protocol-version':
      return observation.protocolVersion ?? violations[0]?.message ?? ''
    case 'input-schema':
    case 'output-schema':
      return status === 'pass'
        ? `${tools}/${tools} tools valid`
        : `${toolsWith('violation')}/${tools} tools violate the spec${toolsWith('warning') > 0 ? `, ${toolsWith('warning')} with warnings` : ''}`
    case 'tools-list':
      return status === 'pass' ? `${tools} tools` : (findings[0]?.message ?? '')
    case 'call-content': {
      const called = observation.calls.length
      return status === 'pass'
        ? `${called} call(s), every result wrapped in content`
        : `${findings.length} problem(s) in ${called} call(s)`
    }
    default:
      return status === 'pass' ? 'ok' : `${violations.length || findings.length} problem(s)`
  }
}
