import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import {
  type CallPolicy,
  checkCallResult,
  checkUnknownToolCall,
  type PlannedCall,
  planCalls,
  type SkippedCall,
  UNKNOWN_TOOL,
} from './calls.ts'
import type { CheckId, Finding } from './findings.ts'
import { describeError, type ReadReply, readReply } from './reply.ts'
import type { CheckTarget } from './target.ts'
import { checkListedTool, type RawTool } from './tool-schemas.ts'
import { clip, isObject, type RawConnection } from './wire/exchange.ts'
import { openRaw } from './wire/open.ts'

export const CLIENT_INFO = { name: 'dsh-harden-mcp-check', version: '0.1.0' }
/** A version no server supports: the negotiation probe asks for it. */
export const BOGUS_PROTOCOL_VERSION = '1999-01-01'
const MAX_PAGES = 50

export interface ProtocolOptions {
  /** Bound on each request after `initialize`, in ms. */
  readonly timeoutMs: number
  /** Bound on `initialize` (it includes the server's start-up), in ms. */
  readonly initializeTimeoutMs: number
  /** Bound on each `tools/call` of a listed tool, in ms. */
  readonly callTimeoutMs: number
  readonly calls: CallPolicy
}

export interface CallRecord {
  readonly tool: string
  readonly reason: PlannedCall['reason'] | 'probe'
  readonly arguments: Record<string, unknown>
  /** `content` (n blocks), `isError`, `error <code>`, `timeout`, or what else came back. */
  readonly outcome: string
  readonly elapsedMs: number
}

export interface ProtocolObservation {
  readonly findings: readonly Finding[]
  /** Raw tool objects as listed (leniently read when the envelope was wrong). */
  readonly tools: readonly RawTool[]
  readonly serverInfo?: { readonly name: string; readonly version: string } | undefined
  readonly protocolVersion?: string | undefined
  readonly initialized: boolean
  /** Whether the server answered anything at all (false: it could not be started, or nothing listens there). */
  readonly reachable: boolean
  /** Whether a `tools` array came back from tools/list (read leniently). */
  readonly listed: boolean
  /** Checks the probe got far enough to exercise; the rest are reported as skipped. */
  readonly reached: readonly CheckId[]
  readonly calls: readonly CallRecord[]
  readonly skippedCalls: readonly SkippedCall[]
  readonly noise: readonly string[]
  readonly stderr: string
  readonly elapsedMs: number
}

function initializeParams(version: string): object {
  return { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO }
}

/**
 * The raw probe: one connection, one request at a time, every reply judged strictly and read leniently, so a server
 * that fails `initialize` is still asked for `ping`, an unknown method, `tools/list` and `tools/call` and each defect
 * is reported. Real clients stop at the first one; the point here is to name them all.
 */
export async function observeProtocol(
  target: CheckTarget,
  options: ProtocolOptions,
): Promise<ProtocolObservation> {
  const started = performance.now()
  const connection = openRaw(target)
  const findings: Finding[] = []
  const calls: CallRecord[] = []
  const reached = new Set<CheckId>()
  let listed = false
  let reachable = false
  const ask = async (method: string, params: unknown, timeoutMs = options.timeoutMs): Promise<ReadReply> => {
    const read = readReply(await connection.request(method, params, timeoutMs))
    findings.push(...read.findings)
    return read
  }
  try {
    const init = await ask(
      'initialize',
      initializeParams(LATEST_PROTOCOL_VERSION),
      options.initializeTimeoutMs,
    )
    reachable = init.kind === 'reply' || init.kind === 'timeout'
    const handshake = judgeInitialize(init, LATEST_PROTOCOL_VERSION)
    findings.push(...handshake.findings)
    for (const id of ['initialize', 'protocol-version'] as const) reached.add(id)
    if (init.kind === 'reply') reached.add('jsonrpc-envelope')
    if (init.kind !== 'reply') {
      // A server that is gone, unreachable or silent would only time out on every other request too.
      return finish()
    }
    if (handshake.protocolVersion !== undefined) connection.setProtocolVersion(handshake.protocolVersion)
    await connection.notify('notifications/initialized')

    findings.push(...judgePing(await ask('ping', undefined)))
    reached.add('ping')
    findings.push(...judgeUnknownMethod(await ask('dsh-harden/no-such-method', {})))
    for (const id of ['unknown-method', 'error-codes'] as const) reached.add(id)

    const list = await listTools(ask, handshake.capabilities)
    findings.push(...list.findings)
    reached.add('tools-list')
    listed = list.ok
    if (list.ok) for (const id of ['input-schema', 'output-schema'] as const) reached.add(id)
    list.tools.forEach((tool, index) => {
      findings.push(...checkListedTool(tool, index))
    })

    reached.add('call-content')
    const probe = await ask('tools/call', { name: UNKNOWN_TOOL, arguments: {} })
    findings.push(...checkUnknownToolCall(probe))
    calls.push(record(UNKNOWN_TOOL, 'probe', {}, probe, 0))
    const { planned, skipped } = planCalls(list.tools, options.calls)
    // A server that echoes ids can take the calls at once (a slow tool then costs one timeout, not one each); one
    // that does not is asked one request at a time so each reply can still be attributed.
    const concurrent = handshake.ok
    const runCall = async (call: PlannedCall): Promise<void> => {
      const began = performance.now()
      const read = await ask(
        'tools/call',
        { name: call.tool, arguments: call.arguments },
        options.callTimeoutMs,
      )
      const tool = list.tools.find((candidate) => candidate.name === call.tool)
      findings.push(...checkCallResult(tool, call.tool, read))
      calls.push(record(call.tool, call.reason, call.arguments, read, performance.now() - began))
    }
    if (concurrent) await Promise.all(planned.map(runCall))
    else for (const call of planned) await runCall(call)
    return finish(handshake, list.tools, skipped)
  } finally {
    await connection.close()
  }

  function finish(
    handshake?: ReturnType<typeof judgeInitialize>,
    tools: readonly RawTool[] = [],
    skippedCalls: readonly SkippedCall[] = [],
  ): ProtocolObservation {
    findings.push(...noiseFindings(connection))
    return {
      findings,
      tools,
      serverInfo: handshake?.serverInfo,
      protocolVersion: handshake?.protocolVersion,
      initialized: handshake?.ok === true,
      reachable,
      listed,
      reached: [...reached],
      calls,
      skippedCalls,
      noise: connection.noise,
      stderr: connection.stderr(),
      elapsedMs: Math.round(performance.now() - started),
    }
  }
}

function record(
  tool: string,
  reason: CallRecord['reason'],
  args: Record<string, unknown>,
  read: ReadReply,
  elapsedMs: number,
): CallRecord {
  let outcome: string
  if (read.kind !== 'reply') outcome = read.detail ?? read.kind
  else if (read.error !== undefined) outcome = `error ${describeError(read.error)}`
  else if (isObject(read.result) && Array.isArray(read.result.content))
    outcome = `${read.result.isError === true ? 'isError, ' : ''}content: ${read.result.content.length} block(s)`
  else outcome = `no content: ${clip(JSON.stringify(read.result) ?? 'undefined', 120)}`
  return { tool, reason, arguments: args, outcome, elapsedMs: Math.round(elapsedMs) }
}

function noiseFindings(connection: RawConnection): Finding[] {
  const findings: Finding[] = []
  if (connection.noise.length > 0)
    findings.push({
      check: 'jsonrpc-envelope',
      severity: 'violation',
      message: `the server wrote ${connection.noise.length} line(s) that are not JSON-RPC messages (stdout carries only MCP messages; logs go to stderr)`,
      evidence: connection.noise.slice(0, 3).join(' | '),
    })
  if (connection.unsolicited.length > 0)
    findings.push({
      check: 'jsonrpc-envelope',
      severity: 'violation',
      message: `the server answered a notification (notifications/initialized) ${connection.unsolicited.length === 1 ? '' : `or sent ${connection.unsolicited.length} unsolicited replies `}- JSON-RPC forbids replying to notifications${connection.unsolicited[0]?.startsWith('HTTP') ? '; over HTTP the answer is 202 with no body' : ''}`,
      evidence: connection.unsolicited.slice(0, 3).join(' | '),
    })
  return findings
}

interface Handshake {
  readonly ok: boolean
  readonly findings: Finding[]
  readonly protocolVersion?: string | undefined
  readonly serverInfo?: { name: string; version: string } | undefined
  readonly capabilities?: Record<string, unknown> | undefined
}

/** `initialize` and `protocol-version`: the handshake result's required members and the version it settles on. */
export function judgeInitialize(read: ReadReply, requested: string): Handshake {
  const findings: Finding[] = []
  const fail = (check: 'initialize' | 'protocol-version', message: string): void => {
    findings.push({ check, severity: 'violation', message, evidence: read.evidence })
  }
  if (read.kind !== 'reply') {
    fail('initialize', `initialize: ${read.detail}`)
    fail('protocol-version', 'no protocol version was negotiated: initialize was not answered')
    return { ok: false, findings }
  }
  if (read.error !== undefined || !isObject(read.result)) {
    fail(
      'initialize',
      read.error !== undefined
        ? `initialize was refused with ${describeError(read.error)}; every real client sends initialize first and disconnects here`
        : 'initialize returned no result object; every real client disconnects here',
    )
    fail(
      'protocol-version',
      'no protocol version was negotiated: the server never returned a protocolVersion',
    )
    return { ok: false, findings }
  }
  const result = read.result
  const serverInfo = isObject(result.serverInfo) ? result.serverInfo : undefined
  if (serverInfo === undefined) fail('initialize', 'the initialize result has no serverInfo {name, version}')
  else {
    if (typeof serverInfo.name !== 'string') fail('initialize', 'serverInfo.name is not a string')
    if (typeof serverInfo.version !== 'string') fail('initialize', 'serverInfo.version is not a string')
  }
  const capabilities = isObject(result.capabilities) ? result.capabilities : undefined
  if (capabilities === undefined) fail('initialize', 'the initialize result has no capabilities object')
  const version = result.protocolVersion
  let protocolVersion: string | undefined
  if (typeof version !== 'string') {
    fail(
      'protocol-version',
      `the initialize result has ${version === undefined ? 'no protocolVersion' : `protocolVersion ${JSON.stringify(version)}, not a string`}`,
    )
  } else if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    fail(
      'protocol-version',
      `protocolVersion ${JSON.stringify(version)} is not one the SDK client supports (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}); it disconnects`,
    )
  } else {
    protocolVersion = version
    if (version !== requested)
      findings.push({
        check: 'protocol-version',
        severity: 'note',
        message: `asked for ${requested}, the server settled on ${version}`,
      })
  }
  return {
    ok: findings.every((finding) => finding.severity !== 'violation') && read.findings.length === 0,
    findings,
    protocolVersion,
    serverInfo:
      serverInfo !== undefined && typeof serverInfo.name === 'string'
        ? { name: serverInfo.name, version: String(serverInfo.version ?? '') }
        : undefined,
    capabilities,
  }
}

function judgePing(read: ReadReply): Finding[] {
  const fail = (message: string): Finding[] => [
    { check: 'ping', severity: 'violation', message: `ping: ${message}`, evidence: read.evidence },
  ]
  if (read.kind !== 'reply') return fail(read.detail ?? 'no reply')
  if (read.error !== undefined) return fail(`answered with error ${describeError(read.error)}`)
  if (!isObject(read.result)) return fail('the result is not an object')
  if (Object.keys(read.result).length > 0)
    return [
      {
        check: 'ping',
        severity: 'warning',
        message: 'ping: the result is not empty; the spec says {}',
        evidence: read.evidence,
      },
    ]
  return []
}

function judgeUnknownMethod(read: ReadReply): Finding[] {
  const fail = (message: string): Finding[] => [
    { check: 'unknown-method', severity: 'violation', message, evidence: read.evidence },
  ]
  if (read.kind !== 'reply') return fail(`an unknown method got no reply: ${read.detail}`)
  if (read.error === undefined) return fail('an unknown method was answered with a result, not error -32601')
  if (read.error.code !== -32601)
    return fail(`an unknown method got error ${describeError(read.error)}, not -32601 (Method not found)`)
  return []
}

async function listTools(
  ask: (method: string, params: unknown) => Promise<ReadReply>,
  capabilities: Record<string, unknown> | undefined,
): Promise<{ tools: RawTool[]; findings: Finding[]; ok: boolean }> {
  const findings: Finding[] = []
  const tools: RawTool[] = []
  const fail = (message: string, evidence?: string): void => {
    findings.push({ check: 'tools-list', severity: 'violation', message, evidence })
  }
  if (capabilities !== undefined && !isObject(capabilities.tools)) {
    findings.push({
      check: 'tools-list',
      severity: 'warning',
      message:
        'the initialize result does not declare the "tools" capability; clients that honour it never list tools',
    })
  }
  let cursor: string | undefined
  let ok = false
  for (let page = 0; page < MAX_PAGES; page++) {
    const read = await ask('tools/list', cursor === undefined ? {} : { cursor })
    if (read.kind !== 'reply') {
      fail(`tools/list: ${read.detail}`)
      break
    }
    if (read.error !== undefined) {
      fail(`tools/list failed with ${describeError(read.error)}`, read.evidence)
      break
    }
    const result = read.result
    if (!isObject(result) || !Array.isArray(result.tools)) {
      fail('tools/list: the result has no "tools" array', read.evidence)
      break
    }
    ok = true
    result.tools.forEach((tool: unknown, index: number) => {
      if (isObject(tool)) tools.push(tool)
      else fail(`tools/list: entry ${index} is not an object: ${clip(JSON.stringify(tool), 80)}`)
    })
    if (result.nextCursor === undefined) break
    if (typeof result.nextCursor !== 'string') {
      fail(`tools/list: nextCursor is ${JSON.stringify(result.nextCursor)}, not a string`)
      break
    }
    cursor = result.nextCursor
  }
  const seen = new Set<string>()
  for (const tool of tools) {
    if (typeof tool.name !== 'string') continue
    if (seen.has(tool.name))
      fail(`tools/list: "${tool.name}" is listed twice (DSH rejects the whole list as invalid)`)
    seen.add(tool.name)
  }
  return { tools, findings, ok }
}

/**
 * `version-negotiation`, on a connection of its own: ask for a version that does not exist; the server must answer
 * with one it supports, not an error.
 */
export async function observeNegotiation(
  target: CheckTarget,
  options: Pick<ProtocolOptions, 'initializeTimeoutMs'>,
): Promise<Finding[]> {
  const connection = openRaw(target)
  try {
    const read = readReply(
      await connection.request(
        'initialize',
        initializeParams(BOGUS_PROTOCOL_VERSION),
        options.initializeTimeoutMs,
      ),
    )
    const fail = (message: string, severity: Finding['severity'] = 'violation'): Finding[] => [
      { check: 'version-negotiation', severity, message, evidence: read.evidence },
    ]
    const asked = `asked for protocolVersion ${BOGUS_PROTOCOL_VERSION}`
    if (read.kind !== 'reply') return fail(`${asked}: ${read.detail}`)
    if (read.error !== undefined)
      return fail(
        `${asked}: refused with ${describeError(read.error)} instead of offering a version it supports`,
      )
    const version = isObject(read.result) ? read.result.protocolVersion : undefined
    if (typeof version !== 'string') return fail(`${asked}: the result carries no protocolVersion`)
    if (version === BOGUS_PROTOCOL_VERSION)
      return fail(`${asked}: the server echoed it back, so it does not check versions at all`)
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return fail(`${asked}: the server offered ${JSON.stringify(version)}, which no SDK client supports`)
    return []
  } finally {
    await connection.close()
  }
}
