import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { unexpected } from '../src/uncaught.ts'
import { lintError, runCli } from './run-cli.ts'

/** Every command path whose options this package parses. */
const COMMAND_PATHS = ['', 'lint', 'types', 'sanitize', 'mcp', 'mcp repair', 'mcp gateway', 'mcp check']

const ONE_LINE = /^[^\n]*\n$/

describe('bad input gets one line that says what, where and how to fix it', { timeout: 600_000 }, () => {
  for (const path of COMMAND_PATHS) {
    const shown = path === '' ? 'dsh-harden' : `dsh-harden ${path}`
    it(`${shown}: an unknown option is named, with a pointer to --help (exit 2)`, async () => {
      const { code, stdout, stderr } = await runCli([...path.split(' ').filter(Boolean), '--foo'])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toBe(`${shown}: unknown option --foo; run \`${shown} --help\` for the usage\n`)
    })
  }

  it('an option without its value, and a boolean option given one, say so in plain words (exit 2)', async () => {
    const missing = await runCli(['lint', 'x.mjs', '--timeout'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      'dsh-harden lint: option --timeout needs a value; run `dsh-harden lint --help` for the usage\n',
    )
    const valued = await runCli(['lint', 'x.mjs', '--json=yes'])
    expect(valued.code).toBe(2)
    expect(valued.stderr).toMatch(/^dsh-harden lint: option --json takes no value; /)
    const dashed = await runCli(['mcp', 'check', '--timeout', '--json', '--', 'server'])
    expect(dashed.code).toBe(2)
    expect(dashed.stderr).toMatch(
      /^dsh-harden mcp check: option --timeout needs a value \(to pass one that starts/,
    )
  })

  it('lint refuses a file that is not a module, naming the kinds it takes (exit 2)', async () => {
    const { code, stderr } = await runCli(['lint', 'tests/fixtures/mcp-tools.json'])
    expect(code).toBe(2)
    expect(stderr).toBe(
      "dsh-harden lint: tests/fixtures/mcp-tools.json is not a JavaScript or TypeScript module; pass the plugin's module (.js, .mjs, .cjs, .ts, .mts, .cts) or its package directory\n",
    )
  })

  it('mcp repair refuses an upstream that is not an http(s) URL (exit 2)', async () => {
    const { code, stderr } = await runCli(['mcp', 'repair', '--upstream', 'localhost:3001'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^dsh-harden mcp repair: --upstream "localhost:3001" is not an http\(s\) URL; /)
    expect(stderr).toMatch(ONE_LINE)
  })

  it('types names a missing plugin without an internal class name (exit 2)', async () => {
    const { code, stderr } = await runCli(['types', 'tests/fixtures/does-not-exist.mjs'])
    expect(code).toBe(2)
    expect(stderr).toBe('dsh-harden types: tests/fixtures/does-not-exist.mjs: no such file or directory\n')
  })

  it('types says an MCP server command that cannot be started was not found, with the fix (exit 2)', async () => {
    const { code, stderr } = await runCli([
      'types',
      '--mcp',
      '--timeout',
      '5000',
      '--',
      '/no/such/mcp-server',
    ])
    expect(code).toBe(2)
    expect(stderr).toBe(
      'dsh-harden types: could not start "/no/such/mcp-server": command not found (spawn ENOENT); check the spelling, install it, or give its full path (PATH is searched)\n',
    )
  })

  it('mcp check: a server command that cannot be started is one line, not a report blaming the server (exit 2)', async () => {
    const { code, stdout, stderr } = await runCli([
      'mcp',
      'check',
      '--no-clients',
      '--',
      '/no/such/mcp-server',
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(ONE_LINE)
    expect(stderr).toMatch(/^dsh-harden mcp check: nothing answered: .*\/no\/such\/mcp-server/)
  })

  it('mcp check: a URL where nothing listens is one line that names the URL (exit 2)', async () => {
    const url = 'http://127.0.0.1:9/mcp' // the discard port: nothing serves MCP there
    const { code, stdout, stderr } = await runCli(['mcp', 'check', '--no-clients', '--url', url])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(ONE_LINE)
    expect(stderr).toMatch(
      /^dsh-harden mcp check: nothing answered: .*; check that an MCP server listens at http:\/\/127\.0\.0\.1:9\/mcp\n$/,
    )
  })

  it('lint and types refuse an empty plugin path instead of reading it as the working directory (exit 2)', async () => {
    for (const command of ['lint', 'types']) {
      const { code, stderr } = await runCli([command, ''])
      expect(code).toBe(2)
      expect(stderr).toBe(
        `dsh-harden ${command}: the plugin path is empty; pass a plugin module file or package directory\n`,
      )
    }
  })

  it('mcp repair: a server that exits at once is reported with its exit code, which the proxy exits with', async () => {
    const { code, stderr } = await runCli(['mcp', 'repair', '--', process.execPath, '-e', 'process.exit(3)'])
    expect(code).toBe(3)
    expect(stderr).toMatch(/^dsh-harden mcp repair: the server ".*node" exited with code 3; /m)
  })

  it('an unexpected error is one line naming DSH_HARDEN_DEBUG, and the stack only with DSH_HARDEN_DEBUG=1', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'tools')")
    const previous = process.env.DSH_HARDEN_DEBUG
    try {
      delete process.env.DSH_HARDEN_DEBUG
      expect(unexpected('error', error)).toBe(
        "dsh-harden: unexpected error: TypeError: Cannot read properties of undefined (reading 'tools') (set DSH_HARDEN_DEBUG=1 for the stack trace)\n",
      )
      process.env.DSH_HARDEN_DEBUG = '1'
      expect(unexpected('rejection', error)).toMatch(
        /^dsh-harden: unhandled rejection: TypeError: .*\n {4}at /,
      )
    } finally {
      if (previous === undefined) delete process.env.DSH_HARDEN_DEBUG
      else process.env.DSH_HARDEN_DEBUG = previous
    }
  })
})

describe('lint names the file, line and column of a syntax error (exit 2)', { timeout: 600_000 }, () => {
  // Written at test time: broken files in the fixtures folder would break the repository's own lint.
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-harden-syntax-'))
    await writeFile(
      join(dir, 'token.mjs'),
      'export default {\n  apply(ctx) {\n    const limit = ;\n  },\n}\n',
    )
    await writeFile(join(dir, 'plugin.mjs'), "import './token.mjs'\nexport default { apply() {} }\n")
    await writeFile(
      join(dir, 'twice.ts'),
      'export default { apply() {} }\nconst n: number = 1; const n = 2\n',
    )
    await writeFile(join(dir, 'arrow.ts'), 'const a: number = 1\nconst z = <>(x: number) => x\n')
    await writeFile(join(dir, 'broken.cjs'), 'module.exports = {\n  apply: ,\n}\n')
    await writeFile(join(dir, 'binding.mjs'), "import { noSuchExport } from 'node:fs'\nexport default {}\n")
  })

  it.each([
    ['an ES module (Node gives it no position)', 'token.mjs', ":3:19: syntax error: Unexpected token ';'"],
    [
      'TypeScript that strips but does not parse',
      'twice.ts',
      ":2:28: syntax error: Identifier 'n' has already been declared",
    ],
    [
      'TypeScript that does not strip',
      'arrow.ts',
      ':2:13: syntax error: An arrow function is not allowed here',
    ],
    ['CommonJS', 'broken.cjs', ":2:10: syntax error: Unexpected token ','"],
    ['an import of a missing export', 'binding.mjs', ':1:10: syntax error: The requested module'],
  ])('in %s', async (_kind, name, expected) => {
    const file = join(dir, name)
    const { code, error } = await lintError(file)
    expect(code).toBe(2)
    expect(error.startsWith(`${file}${expected}`), error).toBe(true)
  })

  it('in a file the plugin imports, naming the plugin too', async () => {
    const { code, error } = await lintError(join(dir, 'plugin.mjs'))
    expect(code).toBe(2)
    expect(error).toBe(
      `${join(dir, 'token.mjs')}:3:19: syntax error: Unexpected token ';' (imported by ${join(dir, 'plugin.mjs')})`,
    )
  })

  it('relative to the working directory in text mode, on one line', async () => {
    const { code, stdout, stderr } = await runCli(['lint', 'token.mjs'], { cwd: dir })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe("dsh-harden lint: token.mjs:3:19: syntax error: Unexpected token ';'\n")
  })
})
