import { describe, expect, it } from 'vitest'
import { parseClaudeGet, planCalls, synthesizeArguments } from '../src/index.ts'
import { readReply } from '../src/reply.ts'
import type { Exchange } from '../src/wire/exchange.ts'

function reply(message: unknown, id = 7): Exchange {
  return {
    method: 'ping',
    id,
    elapsedMs: 1,
    outcome: { kind: 'reply', message, text: JSON.stringify(message), matchedBy: 'id' },
  }
}

describe('reading a reply', () => {
  it('accepts a JSON-RPC 2.0 response as it is', () => {
    const read = readReply(reply({ jsonrpc: '2.0', id: 7, result: {} }))
    expect(read.findings).toEqual([])
    expect(read.result).toEqual({})
  })

  it('reports an {ok,data} envelope and still reads its data', () => {
    const read = readReply(reply({ ok: true, data: { tools: [] } }))
    expect(read.findings.map((f) => f.check)).toEqual(['jsonrpc-envelope'])
    expect(read.findings[0]?.message).toMatch(
      /no "jsonrpc":"2.0"; no "id".*custom envelope keys "ok", "data"/,
    )
    expect(read.result).toEqual({ tools: [] })
  })

  it('reports a string error code and a wrong id', () => {
    const read = readReply(reply({ jsonrpc: '2.0', id: '7', error: { code: 'E_BAD', message: 'no' } }))
    expect(read.findings.map((f) => f.check)).toEqual(['jsonrpc-envelope', 'error-codes'])
    expect(read.findings[0]?.message).toMatch(/"id" is "7", the request's id was 7/)
  })
})

describe('which tools are called', () => {
  const tools = [
    { name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    {
      name: 'search',
      inputSchema: { type: 'object', required: ['q'], properties: { q: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'wipe',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: true },
    },
    { name: 'write', inputSchema: { type: 'object' } },
  ]

  it('by default: read-only, not destructive, no required arguments', () => {
    const { planned, skipped } = planCalls(tools, { mode: 'read-only', named: new Map() })
    expect(planned.map((call) => call.tool)).toEqual(['read'])
    expect(skipped.map((call) => call.tool)).toEqual(['search'])
  })

  it('named tools are called whatever the mode; unknown names are reported', () => {
    const named = new Map<string, Record<string, unknown> | undefined>([
      ['write', { x: 1 }],
      ['nope', undefined],
    ])
    const { planned, skipped } = planCalls(tools, { mode: 'none', named })
    expect(planned).toEqual([{ tool: 'write', arguments: { x: 1 }, reason: 'named' }])
    expect(skipped[0]?.reason).toMatch(/not listed/)
  })

  it('--call-all synthesizes the required arguments', () => {
    expect(synthesizeArguments(tools[1]!.inputSchema)).toEqual({ q: '' })
    expect(planCalls(tools, { mode: 'all', named: new Map() }).planned).toHaveLength(4)
  })
})

describe('reading `claude mcp get`', () => {
  it('maps the three health states Claude Code prints', () => {
    expect(parseClaudeGet('x:\n  Status: ✔ Connected\n').status).toBe('accepted')
    const rejected = parseClaudeGet(
      '  Status: ! Connected · tools fetch failed\n  Issue: Invalid input: expected "object" (at tools.0.inputSchema.type) (+12 more)\n',
    )
    expect(rejected).toEqual({
      status: 'rejected',
      detail:
        '`claude mcp get`: ! Connected · tools fetch failed; Issue: Invalid input: expected "object" (at tools.0.inputSchema.type) (+12 more)',
    })
    expect(parseClaudeGet('  Status: ✘ Failed to connect\n').status).toBe('failed')
  })
})
