import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@dsh-harden/mcp-client/fixtures'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './run-cli.ts'

const EVERYTHING = fileURLToPath(
  new URL(
    '../../../regress/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
)
const EMPTY_SCHEMA_SERVER = fileURLToPath(new URL('./fixtures/empty-schema-server.mjs', import.meta.url))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-harden-types-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Type-checks the given files together under strict settings; returns every diagnostic as text. */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    lib: ['lib.es2022.d.ts'],
  }
  const paths = Object.keys(files).map((name) => join(dir, name))
  const host = ts.createCompilerHost(options)
  const readFileOriginal = host.readFile.bind(host)
  host.readFile = (file) => {
    const name = Object.keys(files).find((candidate) => join(dir, candidate) === file)
    return name === undefined ? readFileOriginal(file) : files[name]
  }
  host.fileExists = (file) => paths.includes(file) || ts.sys.fileExists(file)
  const program = ts.createProgram(paths, options, host)
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
}

describe('dsh-harden types: a plugin', { timeout: 600_000 }, () => {
  let declarations: string
  let result: Awaited<ReturnType<typeof runCli>>
  beforeAll(async () => {
    const out = join(dir, 'plugin-tools.ts')
    result = await runCli(['types', 'tests/fixtures/typed-tools.mjs', '--out', out])
    declarations = await readFile(out, 'utf8')
  })

  it('types every tool, and types a bare property table `unknown` naming the rule (exit 1)', () => {
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /unknown bare_table: parameters fail the root contract \(bare-property-table\)/,
    )
    expect(declarations).toMatch(
      /\[bare-property-table\][^\n]*\n \*\/\nexport type BareTableArgs = unknown\n/,
    )
    expect(declarations).toContain('export interface SearchDocsArgs {')
  })

  it('turns tool names into identifiers, numbers colliding ones, and maps every name in ToolArgs', () => {
    expect(declarations).toMatch(
      /export interface ToolArgs \{\n {2}"search_docs": SearchDocsArgs;\n {2}"mcp__srv__get-sum": McpSrvGetSumArgs;\n {2}"get_sum": GetSumArgs;\n {2}"get-sum": GetSum2Args;\n {2}"no_args": NoArgsArgs;\n {2}"bare_table": BareTableArgs;\n\}/,
    )
  })

  it("puts the tool description in the JSDoc and prefixes each tool's named subschemas", () => {
    expect(declarations).toMatch(/\/\*\*\n \* Searches the docs\.\n \*\n \* Search options\./)
    expect(declarations).toContain('export interface SearchDocsPerson {')
    expect(declarations).toContain('export interface McpSrvGetSumPerson {')
  })

  it('compiles, and a usage file type-checks against it: right types pass, wrong ones are errors', () => {
    const usage = `import type { McpSrvGetSumArgs, SearchDocsArgs, ToolArgs } from './plugin-tools.ts'

export function execute(args: ToolArgs['search_docs']): string {
  return args.query + (args.filter?.since ?? '')
}
export const ok: SearchDocsArgs = {
  query: 'q',
  mode: 'fast',
  tags: ['a'],
  filter: { since: '2024-01-01T00:00:00Z', authors: [{ name: 'Ada' }] },
  target: { url: 'https://example.com' },
  nullable: null,
  anything: { nested: [1, 2] },
  extra: 'open objects accept unknown keys, as JSON Schema does',
}
export const other: SearchDocsArgs = { query: 'q', target: { path: '/tmp' } }
export const sum: ToolArgs['mcp__srv__get-sum'] = { a: 1, b: 2 }
export const bare: ToolArgs['bare_table'] = 'anything: it is unknown'
// @ts-expect-error query must be a string
export const wrongType: SearchDocsArgs = { query: 42 }
// @ts-expect-error mode is an enum
export const wrongEnum: SearchDocsArgs = { query: 'q', mode: 'slow' }
// @ts-expect-error query is required
export const missing: SearchDocsArgs = {}
// @ts-expect-error filter is closed (additionalProperties: false)
export const closed: SearchDocsArgs = { query: 'q', filter: { since: 'x', bogus: 1 } }
// @ts-expect-error tags is an array of strings
export const wrongItems: SearchDocsArgs = { query: 'q', tags: [1] }
// @ts-expect-error a target matches one branch: url or path
export const wrongBranch: SearchDocsArgs = { query: 'q', target: { url: 1 } }
// @ts-expect-error b is required
export const partial: McpSrvGetSumArgs = { a: 1 }
`
    expect(typeCheck({ 'plugin-tools.ts': declarations })).toEqual([])
    expect(typeCheck({ 'plugin-tools.ts': declarations, 'usage.ts': usage })).toEqual([])
    // The harness itself sees errors: the same wrong assignment without @ts-expect-error is reported.
    const wrong = `import type { SearchDocsArgs } from './plugin-tools.ts'\nexport const a: SearchDocsArgs = { query: 42 }\n`
    expect(typeCheck({ 'plugin-tools.ts': declarations, 'wrong.ts': wrong })).toEqual([
      expect.stringMatching(/wrong\.ts: Type 'number' is not assignable to type 'string'/),
    ])
  })
})

describe('dsh-harden types: an MCP server', { timeout: 600_000 }, () => {
  it('types every tool of @modelcontextprotocol/server-everything over stdio (exit 0), and the file compiles', async () => {
    const { code, stdout, stderr } = await runCli([
      'types',
      '--mcp',
      '--',
      process.execPath,
      EVERYTHING,
      'stdio',
    ])
    expect(code, stderr).toBe(0)
    expect(stdout).toContain('export interface GetSumArgs {')
    expect(stdout).toMatch(/"get-sum": GetSumArgs;/)
    expect(stdout).toMatch(/"echo": EchoArgs;/)
    expect(stdout).toMatch(/\/\*\*\n \* Echoes back the input string\n \*\/\nexport interface EchoArgs/)
    const usage = `import type { ToolArgs } from './everything.ts'
export const sum: ToolArgs['get-sum'] = { a: 1, b: 2 }
// @ts-expect-error a is a number
export const wrong: ToolArgs['get-sum'] = { a: 'one', b: 2 }
`
    expect(typeCheck({ 'everything.ts': stdout, 'use-everything.ts': usage })).toEqual([])
  })

  it('falls back to a plain tools/list when the SDK rejects `inputSchema: {}`, follows nextCursor, isolates a bad tool', async () => {
    const { code, stdout, stderr } = await runCli([
      'types',
      '--mcp',
      '--',
      process.execPath,
      EMPTY_SCHEMA_SERVER,
    ])
    expect(code).toBe(1)
    expect(stderr).toMatch(/note: the MCP SDK rejected the tools\/list result/)
    expect(stderr).toMatch(/unknown pick_one: parameters fail the root contract \(root-union\)/)
    expect(stdout).toMatch(/repaired by the MCP intake[^\n]*root-empty[\s\S]*export interface GetTimeArgs \{/)
    expect(stdout).toContain('export interface AddArgs {')
    expect(stdout).toContain('export type PickOneArgs = unknown')
    expect(typeCheck({ 'fallback.ts': stdout })).toEqual([])
  })
})

describe('dsh-harden types: nothing to type', { timeout: 600_000 }, () => {
  it('exits 2 naming the path when the plugin cannot be loaded', async () => {
    const { code, stdout, stderr } = await runCli(['types', 'tests/fixtures/nope.mjs'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/tests\/fixtures\/nope\.mjs: no such file or directory/)
  })

  it('exits 2 naming the server command when it cannot be started, and how to fix that', async () => {
    const { code, stderr } = await runCli(['types', '--mcp', '--', '/nonexistent/mcp-server'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/could not start "\/nonexistent\/mcp-server": command not found \(spawn ENOENT\)/)
    expect(stderr).toMatch(/install it, or give its full path/)
    expect(stderr).not.toMatch(/server is running/)
  })

  it('exits 2 naming why a URL cannot be reached, in plain words (no bare TypeError)', async () => {
    const port = await freePort()
    const { code, stderr } = await runCli(['types', '--mcp-url', `http://127.0.0.1:${port}/mcp`])
    expect(code).toBe(2)
    expect(stderr).toMatch(
      new RegExp(
        `could not connect to http://127\\.0\\.0\\.1:${port}/mcp: connect ECONNREFUSED .*\\(ECONNREFUSED\\); check that the server is running`,
      ),
    )
    expect(stderr).not.toMatch(/TypeError/)
  })

  it('exits 2 on bad usage: two sources, --mcp without a command, -- without --mcp', async () => {
    const two = await runCli(['types', 'x.mjs', '--mcp-url', 'http://localhost:1/mcp'])
    expect(two.code).toBe(2)
    expect(two.stderr).toMatch(/pass one source/)
    expect((await runCli(['types', '--mcp'])).stderr).toMatch(/--mcp needs the server command after `--`/)
    expect((await runCli(['types', 'x.mjs', '--', 'node'])).stderr).toMatch(/use it with --mcp/)
  })

  it('writes nothing into --out when it fails', async () => {
    const out = join(dir, 'never.ts')
    await writeFile(out, 'previous')
    expect((await runCli(['types', 'tests/fixtures/nope.mjs', '--out', out])).code).toBe(2)
    expect(await readFile(out, 'utf8')).toBe('previous')
  })
})
