import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkServer } from '@dsh-harden/mcp-check'
import { ECHO_SERVER } from '@dsh-harden/mcp-repair/fixtures'
import {
  checkProfileContract,
  judgeMcpToolList,
  meetsName,
  PROFILE_IDS,
  profileRules,
} from '@dsh-harden/tools'
import { afterAll, describe, expect, it } from 'vitest'
// compat is a private workspace package with no entry for its verdicts; its own module is read where it lives.
import { afterVerdict, beforeVerdict } from '../../../compat/src/verdicts.ts'
import { runCli } from './run-cli.ts'

const DOTTED = 'service.doSomething'

/**
 * The hard cases of route verdicts, one tool each: an object root with no `properties`, `{}`, a root of `$schema`
 * and properties, `properties: null`, an untyped slot, an optional field, a `$ref`, a lookahead pattern, a root union
 * of objects, a dotted name, a key with a space.
 */
const TOOLS = [
  { name: 'bare_object', inputSchema: { type: 'object' } },
  { name: 'empty', inputSchema: {} },
  {
    name: 'with_schema',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    },
  },
  { name: 'null_properties', inputSchema: { type: 'object', properties: null } },
  { name: 'untyped', inputSchema: { type: 'object', properties: { data: {} }, required: ['data'] } },
  { name: 'optional', inputSchema: { type: 'object', properties: { mode: { type: 'string' } } } },
  {
    name: 'with_ref',
    inputSchema: {
      type: 'object',
      properties: { item: { $ref: '#/$defs/Item' } },
      required: ['item'],
      $defs: { Item: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    },
  },
  {
    name: 'lookahead',
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string', pattern: '^(?!tmp)[a-z]+$' } },
      required: ['key'],
    },
  },
  {
    name: 'root_union',
    inputSchema: {
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    },
  },
  { name: DOTTED, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  {
    name: 'spaced_key',
    inputSchema: { type: 'object', properties: { 'user name': { type: 'string' } }, required: ['user name'] },
  },
]

const scratch = mkdtempSync(join(tmpdir(), 'dsh-harden-route-verdicts-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Stock = 'as-is' | 'misread' | 'refused'

describe('mcp check, sanitize and compat give one verdict per tool and route (toolRouteVerdict, stockRouteVerdict)', () => {
  it('on the same hard cases, served by a real MCP server to mcp check and read from a file by sanitize', async () => {
    const file = join(scratch, 'tools.json')
    writeFileSync(file, JSON.stringify({ tools: TOOLS }))
    const report = await checkServer(
      { kind: 'stdio', command: process.execPath, args: [ECHO_SERVER, JSON.stringify(TOOLS)] },
      { clients: false, calls: { mode: 'none', named: new Map() } },
    )
    expect(report.tools).toEqual(TOOLS.map((tool) => tool.name))
    for (const profile of PROFILE_IDS) {
      // mcp check: both legs, from the tools the server listed.
      const route = report.profiles.find((p) => p.profile === profile)!
      const checked = new Map<string, string>()
      for (const [kind, names] of Object.entries(route.verdicts))
        for (const name of names) checked.set(name, kind)
      const stockChecked = (name: string): Stock =>
        route.verbatim.some((r) => r.tool === name)
          ? 'refused'
          : route.misread.some((r) => r.tool === name)
            ? 'misread'
            : 'as-is'
      // sanitize: the real command on the same tools.
      const { stdout } = await runCli(['sanitize', '--route', profile, '--json', file])
      const sanitized = new Map(
        (JSON.parse(stdout) as { report: { name: string; verdict: string }[] }).report.map((t) => [
          t.name,
          t.verdict,
        ]),
      )
      // An object root with no `properties` is never fine as sent where the route's written rules refuse it.
      if (checkProfileContract({ type: 'object' }, profile).length > 0)
        expect(stockChecked('bare_object'), profile).toBe('refused')
      // A name outside the route's tool-name pattern fails every request stock sends it in; every door renames it.
      const { toolNames } = profileRules(profile)
      if (!meetsName(DOTTED, toolNames)) {
        expect(stockChecked(DOTTED), profile).toBe('refused')
        const reason = route.verbatim.find((r) => r.tool === DOTTED)!.reason
        expect(reason, profile).toContain(`/name: ${profile}: the tool name "${DOTTED}"`)
        expect(reason, profile).toContain(toolNames.text)
        expect(reason, profile).toContain(`--route ${profile}`)
        expect(checked.get(DOTTED), profile).toBe('decoded')
      } else expect(checked.get(DOTTED), profile).toBe('as-is')
      // compat: its before and after verdicts.
      const verdicts = judgeMcpToolList(TOOLS, { profile })
      for (const [index, tool] of TOOLS.entries()) {
        const where = `${profile} ${tool.name}`
        const after = afterVerdict(tool, verdicts[index]!, profile).verdict
        expect(sanitized.get(tool.name), where).toBe(after)
        expect(checked.get(tool.name), where).toBe(after)
        expect(stockChecked(tool.name), `${where} (stock)`).toBe(
          beforeVerdict(tool, profile, undefined).route,
        )
      }
    }
  }, 600_000)
})
