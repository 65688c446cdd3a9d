import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { judgeMcpToolList, PROFILE_IDS, toolRouteVerdict } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { BIN, PACKAGE_DIR, runCli } from './run-cli.ts'

const FIXTURE = 'tests/fixtures/mcp-tools.json'

interface McpTool {
  readonly name: string
  readonly inputSchema: Record<string, unknown>
  readonly outputSchema?: Record<string, unknown>
  readonly [key: string]: unknown
}

interface Verdict {
  readonly name: string
  readonly status: 'unchanged' | 'changed' | 'rejected'
  readonly changes: readonly {
    schema: string
    pointer: string
    action: string
    keyword?: string
    detail: string
  }[]
  readonly violations: readonly {
    schema: string
    pointer: string
    rule: string
    message: string
    hint: string
  }[]
}

interface JsonOutput {
  readonly profile: string
  readonly tools: readonly McpTool[]
  readonly report: readonly Verdict[]
}

async function fixtureTools(): Promise<McpTool[]> {
  return (
    JSON.parse(await readFile(new URL('./fixtures/mcp-tools.json', import.meta.url), 'utf8')) as {
      tools: McpTool[]
    }
  ).tools
}

async function sanitizeJson(
  profile: string,
  ...extra: string[]
): Promise<{ code: number | null; body: JsonOutput }> {
  const { code, stdout } = await runCli(['sanitize', '--profile', profile, FIXTURE, '--json', ...extra])
  return { code, body: JSON.parse(stdout) as JsonOutput }
}

function named<T extends { name: string }>(list: readonly T[], name: string): T {
  const found = list.find((item) => item.name === name)
  if (found === undefined) throw new Error(`no ${name} in ${JSON.stringify(list.map((item) => item.name))}`)
  return found
}

/** Runs the bin with `input` on stdin. */
function runWithStdin(
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: PACKAGE_DIR, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        })
      },
    )
    child.stdin?.end(input)
  })
}

describe('dsh-harden sanitize: projection per tool', { timeout: 600_000 }, () => {
  it('writes the same container with projected tools to stdout and the report to stderr', async () => {
    const { code, stdout, stderr } = await runCli(['sanitize', '--profile', 'deepseek', FIXTURE])
    expect(code).toBe(0)
    const out = JSON.parse(stdout) as { tools: McpTool[] }
    expect(Object.keys(out)).toEqual(['tools'])
    expect(out.tools.map((tool) => tool.name)).toEqual([
      'echo',
      'fetch_page',
      'get-tiny-image',
      'get-weather',
      'pick_one',
    ])
    expect(stderr).toMatch(/^ok {7}echo$/m)
    expect(stderr).toMatch(/^CHANGED {2}pick_one$/m)
    expect(stderr).toMatch(/^ {2}inputSchema \/oneOf \[repaired\] root-union /m)
    expect(stderr).toMatch(/5 tools, 1 unchanged, 4 changed, 0 rejected$/m)
  })

  it('passes a tool the profile accepts through byte for byte, other keys (annotations) included', async () => {
    const original = named(await fixtureTools(), 'echo')
    for (const profile of ['deepseek', 'openai', 'gemini', 'dsh-subset']) {
      const { body } = await sanitizeJson(profile)
      expect(JSON.stringify(named(body.tools, 'echo'), null, 2), profile).toBe(
        JSON.stringify(original, null, 2),
      )
      expect(named(body.report, 'echo'), profile).toEqual({
        name: 'echo',
        status: 'unchanged',
        verdict: 'as-is',
        changes: [],
        violations: [],
      })
    }
  })

  it('serves a root union of object schemas as one object root (kaeawc/auto-mobile#973 shape)', async () => {
    const { body } = await sanitizeJson('openai')
    const served = named(body.tools, 'pick_one').inputSchema as Record<string, unknown>
    expect(served.type).toBe('object')
    expect(Object.keys(served.properties as object)).toEqual(['a', 'b'])
    expect(served).not.toHaveProperty('oneOf')
    expect(named(body.report, 'pick_one').changes).toContainEqual(
      expect.objectContaining({ schema: 'inputSchema', pointer: '/oneOf', action: 'repaired' }),
    )
  })

  it('rejects a root union with no single object reading, names the branch and leaves it out (exit 1)', async () => {
    const tools = [
      ...(await fixtureTools()).filter((tool) => tool.name === 'echo'),
      {
        name: 'nested_union',
        inputSchema: {
          anyOf: [
            { type: 'object', properties: {} },
            { type: 'object', not: { required: ['a'] } },
          ],
        },
      },
    ]
    const { code, stdout, stderr } = await runWithStdin(
      ['sanitize', '--profile', 'openai', '-'],
      JSON.stringify(tools),
    )
    expect(code).toBe(1)
    expect((JSON.parse(stdout) as McpTool[]).map((tool) => tool.name)).toEqual(['echo'])
    expect(stderr).toMatch(/^REJECTED nested_union \(left out of the output\)$/m)
    expect(stderr).toMatch(/^ {2}inputSchema \/anyOf\/1 \[root-union\] .*branch 1: it has its own `not`/m)
    expect(stderr).toMatch(/^ {4}fix: /m)
  })

  it('repairs a typeless `{}` input to an empty object schema and reports the repair', async () => {
    const { body } = await sanitizeJson('deepseek')
    expect(named(body.tools, 'get-tiny-image').inputSchema).toEqual({ type: 'object', properties: {} })
    const verdict = named(body.report, 'get-tiny-image')
    expect(verdict.status).toBe('changed')
    expect(verdict.changes).toContainEqual(
      expect.objectContaining({ schema: 'inputSchema', pointer: '', action: 'repaired' }),
    )
  })

  it('rejects `{}` instead with --no-repair', async () => {
    const { code, body } = await sanitizeJson('deepseek', '--no-repair')
    expect(code).toBe(1)
    expect(named(body.report, 'get-tiny-image')).toMatchObject({
      status: 'rejected',
      violations: [{ schema: 'inputSchema', pointer: '', rule: 'root-empty' }],
    })
  })

  it('drops $schema and spills the keywords a route cannot take, naming each pointer (dsh-subset)', async () => {
    const { body } = await sanitizeJson('dsh-subset')
    const wire = named(body.tools, 'fetch_page').inputSchema
    expect(wire).not.toHaveProperty('$schema')
    const changes = named(body.report, 'fetch_page').changes
    expect(changes).toContainEqual(expect.objectContaining({ pointer: '/$schema', action: 'dropped' }))
    expect(changes).toContainEqual(
      expect.objectContaining({
        pointer: '/properties/max_length/minimum',
        action: 'spilled',
        keyword: 'minimum',
      }),
    )
    expect(changes).toContainEqual(
      expect.objectContaining({
        pointer: '/properties/headers/propertyNames',
        action: 'spilled',
        keyword: 'propertyNames',
      }),
    )
    expect(changes).toContainEqual(
      expect.objectContaining({
        pointer: '/properties/headers/additionalProperties',
        action: 'spilled',
        keyword: 'additionalProperties',
      }),
    )
    expect(JSON.stringify(wire)).not.toMatch(/"propertyNames"|"minimum"/)
  })

  it('projects outputSchema too, with changes marked outputSchema', async () => {
    const { body } = await sanitizeJson('deepseek')
    const tool = named(body.tools, 'get-weather')
    expect(tool.outputSchema).toBeDefined()
    expect(tool.outputSchema).not.toHaveProperty('$schema')
    expect(named(body.report, 'get-weather').changes).toContainEqual(
      expect.objectContaining({ schema: 'outputSchema', pointer: '/$schema', action: 'dropped' }),
    )
  })

  it('--json prints exactly profile, tools and report, each verdict with name, status, changes and violations', async () => {
    const { body } = await sanitizeJson('openai-strict')
    expect(Object.keys(body)).toEqual(['profile', 'tools', 'report'])
    expect(body.profile).toBe('openai-strict')
    for (const verdict of body.report)
      expect(Object.keys(verdict)).toEqual(['name', 'status', 'verdict', 'changes', 'violations'])
    expect(body.report.map((verdict) => [verdict.name, verdict.status])).toEqual([
      ['echo', 'changed'],
      ['fetch_page', 'changed'],
      ['get-tiny-image', 'changed'],
      ['get-weather', 'changed'],
      ['pick_one', 'changed'],
    ])
  })

  it('reports each tool with the verdict pnpm compat and mcp check give it (toolRouteVerdict), and a per-route line', async () => {
    const { body } = await sanitizeJson('openai-strict')
    expect(body.report.map((verdict) => [verdict.name, (verdict as { verdict?: string }).verdict])).toEqual([
      ['echo', 'repaired'],
      ['fetch_page', 'decoded'],
      ['get-tiny-image', 'repaired'],
      ['get-weather', 'repaired'],
      ['pick_one', 'decoded'],
    ])
    // The very verdicts the core function gives, for every profile.
    const tools = await fixtureTools()
    for (const profile of PROFILE_IDS) {
      const expected = judgeMcpToolList(tools, { profile }).map(
        (v) => toolRouteVerdict(tools[v.entry], v, profile).verdict,
      )
      const { body: other } = await sanitizeJson(profile)
      expect(
        other.report.map((verdict) => (verdict as { verdict?: string }).verdict),
        profile,
      ).toEqual(expected)
    }
    const { stderr } = await runCli(['sanitize', '--profile', 'openai-strict', FIXTURE])
    expect(stderr).toMatch(
      /^route openai-strict: 0 sent as is, 3 repaired, 2 projected with a decoder, 0 refused$/m,
    )
  })

  it('marks every change that needs a decoder, in --json and in the text report, and says who decodes', async () => {
    const { body } = await sanitizeJson('openai-strict')
    const changes = named(body.report, 'fetch_page').changes as readonly (Verdict['changes'][number] & {
      needsDecoder?: string
    })[]
    const decoded = changes.filter((change) => change.needsDecoder !== undefined)
    expect(decoded.map((change) => [change.pointer, change.action])).toEqual([
      ['/properties/max_length', 'widened-nullable'],
      ['/properties/headers', 'encoded-json'],
      ['/properties/headers', 'widened-nullable'],
    ])
    for (const change of changes.filter((c) => c.needsDecoder === undefined))
      expect(['encoded-json', 'widened-nullable']).not.toContain(change.action)
    const { stderr } = await runCli(['sanitize', '--profile', 'openai-strict', FIXTURE])
    expect(stderr).toMatch(
      /^ {4}needs a decoder: the model sends this value as JSON text; without a decoder/m,
    )
    expect(stderr).toMatch(
      /^\d+ changes need a decoder on the way back \(the dsh-harden overlay in DSH, or `dsh-harden mcp repair --route openai-strict`\)/m,
    )
    // deepseek keeps optional fields as declared; its only any-JSON slots are the merged keys of the union root,
    // which an open branch leaves unconstrained (JSON text there).
    const deepseek = await sanitizeJson('deepseek')
    const decodedOn = deepseek.body.report.filter((verdict) =>
      verdict.changes.some((change) => (change as { needsDecoder?: string }).needsDecoder !== undefined),
    )
    expect(decodedOn.map((verdict) => verdict.name)).toEqual(['pick_one'])
    const help = await runCli(['sanitize', '--help'])
    expect(help.stdout).toMatch(
      /The decoders are the dsh-harden overlay inside DSH and `dsh-harden mcp repair\s+--route`/,
    )
    expect(help.stdout).toMatch(/Used on its own, the output changes what a server receives/)
  })

  it('reads stdin for `-`, accepts a bare array of tools and writes an array back (exit 0 with nothing rejected)', async () => {
    const tools = (await fixtureTools()).filter((tool) => tool.name !== 'pick_one')
    const { code, stdout } = await runWithStdin(
      ['sanitize', '--profile', 'deepseek', '-'],
      JSON.stringify(tools),
    )
    expect(code).toBe(0)
    const out = JSON.parse(stdout) as McpTool[]
    expect(Array.isArray(out)).toBe(true)
    expect(out).toHaveLength(4)
  })
})

describe('dsh-harden sanitize: unusable input', { timeout: 600_000 }, () => {
  it('exits 2 on an unknown or missing profile, listing the valid ones', async () => {
    const unknown = await runCli(['sanitize', '--profile', 'gpt-9', FIXTURE])
    expect(unknown.code).toBe(2)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toMatch(
      /--route: unknown route "gpt-9"; pass one of: deepseek, openai, openai-strict, codex, anthropic, gemini, .*dsh-subset/,
    )
    expect((await runCli(['sanitize', '--route', 'gpt-9', FIXTURE])).stderr).toMatch(/unknown route "gpt-9"/)
    expect((await runCli(['sanitize', FIXTURE])).stderr).toMatch(/missing --route; pass one of: deepseek/)
  })

  it('exits 2 naming a missing file', async () => {
    const { code, stderr } = await runCli(['sanitize', '--profile', 'openai', 'tests/fixtures/nope.json'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/tests\/fixtures\/nope\.json: cannot read it \(no such file\)/)
  })

  it('exits 2 naming the input and the parse position of invalid JSON', async () => {
    const { code, stderr } = await runWithStdin(
      ['sanitize', '--profile', 'openai'],
      '{\n  "tools": [\n    { "name": "x", }\n  ]\n}',
    )
    expect(code).toBe(2)
    expect(stderr).toMatch(/stdin: not valid JSON: .*position \d+ \(line 3 column \d+\)/)
  })

  it('exits 2 on JSON that is not a tools list', async () => {
    const { code, stderr } = await runWithStdin(['sanitize', '--profile', 'openai', '-'], '{"content": []}')
    expect(code).toBe(2)
    expect(stderr).toMatch(/expected a tools\/list result .* got an object with the keys content/)
  })
})

describe('dsh-harden sanitize --route: the overlay renames too', () => {
  const dotted = [
    { name: 'service.doSomething', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    { name: 'service_doSomething', inputSchema: { type: 'object', properties: {} } },
  ]

  it('a name the route refuses goes out under the wire name the overlay gives it, marked as needing a decoder', async () => {
    const { code, stdout, stderr } = await runWithStdin(
      ['sanitize', '--route', 'anthropic', '-'],
      JSON.stringify(dotted),
    )
    expect(code).toBe(0)
    // `service_doSomething` is taken by the other tool, so the renamed one gets a hash suffix (a bijection).
    const names = (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name)
    expect(names[1]).toBe('service_doSomething')
    expect(names[0]).toMatch(/^service_doSomething_[0-9a-f]{8}$/)
    expect(stderr).toContain(
      `CHANGED  service.doSomething\n  name renamed to ${names[0]}: the route refuses "service.doSomething"`,
    )
    expect(stderr).toMatch(/^1 change needs a decoder on the way back/m)
    const json = await runWithStdin(
      ['sanitize', '--route', 'anthropic', '--json', '-'],
      JSON.stringify(dotted),
    )
    const report = (
      JSON.parse(json.stdout) as { report: { name: string; wireName?: string; status: string }[] }
    ).report
    expect(report.map((tool) => [tool.name, tool.status, tool.wireName])).toEqual([
      ['service.doSomething', 'changed', names[0]],
      ['service_doSomething', 'unchanged', undefined],
    ])
  })

  it('gemini takes dots: the name goes out as declared', async () => {
    const { stdout } = await runWithStdin(['sanitize', '--route', 'gemini', '-'], JSON.stringify(dotted))
    expect((JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name)).toEqual([
      'service.doSomething',
      'service_doSomething',
    ])
  })

  it('--profile still works as --route (its older name); the two naming different routes is a usage error', async () => {
    const [route, profile] = await Promise.all([
      runCli(['sanitize', '--route', 'openai-strict', FIXTURE, '--json']),
      runCli(['sanitize', '--profile', 'openai-strict', FIXTURE, '--json']),
    ])
    expect(profile.stdout).toBe(route.stdout)
    const both = await runCli(['sanitize', '--route', 'openai', '--profile', 'gemini', FIXTURE])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/--route openai and --profile gemini name different routes/)
  })
})
