import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  collectExamples,
  mustNotRun,
  NEEDS,
  RUNS,
  type ShellExample,
  shellExamples,
} from './readme-examples.ts'
import { BIN, PACKAGE_DIR } from './run-cli.ts'

const ROOT = join(PACKAGE_DIR, '..', '..')
const EXAMPLE_TIMEOUT_MS = 60_000

/**
 * Every shell example of every README runs verbatim here, or is marked with what it needs (see `NEEDS`, `RUNS`).
 * Each command runs on its own with `bash -o pipefail -c`, from its README's folder, on this Node 22, with a
 * `dsh-harden` on PATH as an installed bin would be, in an empty HOME and DSH_HOME, with stdin closed; it must end
 * with exit code 0 (or the `# exits: N` before it) within a minute and must not leave new files in the checkout.
 * Marker comments apply to every command after them in the same group of lines (up to a blank line).
 */
const examples = collectExamples(ROOT)
const ciLines = new Set(
  readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .map((line) => line.trim()),
)

const scratch = mkdtempSync(join(tmpdir(), 'dsh-harden-readme-'))
const binDir = join(scratch, 'bin')
mkdirSync(binDir)
// npm links an installed package's bin the same way: a symlink to the file, run by the first `node` on PATH.
symlinkSync(BIN, join(binDir, 'dsh-harden'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function untracked(folder: string): Set<string> {
  const listed = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '--', '.'], {
    cwd: folder,
    encoding: 'utf8',
  })
  return new Set(listed.split('\n').filter((line) => line !== ''))
}

interface Outcome {
  readonly code: number | null
  readonly output: string
  readonly timedOut: boolean
}

function runExample(example: ShellExample): Promise<Outcome> {
  const home = mkdtempSync(join(scratch, 'home-'))
  return new Promise((resolve) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', example.command], {
      cwd: example.folder,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: [binDir, dirname(process.execPath), join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(
          ':',
        ),
        HOME: home,
        DSH_HOME: join(home, '.dsh'),
        TMPDIR: home,
        LANG: 'C.UTF-8',
        ...(process.env.CI === undefined ? {} : { CI: process.env.CI }),
      },
    })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = `${output}${chunk.toString('utf8')}`.slice(-4_000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.kill(-child.pid!, 'SIGKILL')
    }, EXAMPLE_TIMEOUT_MS)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, timedOut })
    })
  })
}

const where = (example: ShellExample) => `${example.readme}:${example.line}`

describe('README shell examples', () => {
  it('finds the examples of the root README and of the packages', () => {
    const readmes = new Set(examples.map((example) => example.readme))
    expect(readmes).toContain('README.md')
    expect(readmes).toContain('packages/cli/README.md')
  })

  for (const example of examples) {
    const title = `${where(example)} ${example.command}`
    if (example.badMarkers.length > 0) {
      it(title, () => {
        expect.fail(
          `${where(example)}: ${example.badMarkers.join(' / ')} is not a marker. Write \`# needs: <${Object.keys(NEEDS).join(' | ')}>\`, \`# runs: in <${Object.keys(RUNS).join(' | ')}>\` or \`# exits: <code>\` on the line before the command.`,
        )
      })
    } else if (example.ambiguousMarkers.length > 0) {
      it(title, () => {
        expect.fail(
          `${where(example)}: ${example.ambiguousMarkers.join(' / ')}: unclear which command it is for. A marker applies to every command after it up to a blank line; put it first in its group (a blank line before it).`,
        )
      })
    } else if (example.marker?.kind === 'runs') {
      const { where: runner } = example.marker
      it(`${title} (runs in ${runner})`, () => {
        if (runner === 'the install walkthrough')
          expect(
            example.readme,
            `${where(example)}: only INSTALL.md's steps run in the install walkthrough`,
          ).toBe('INSTALL.md')
        if (runner === 'CI')
          expect(
            // A trailing `# comment` explains the command; the command itself must be a line of .ci/run.
            ciLines.has(example.command.replace(/\s+#.*$/, '')),
            `${where(example)}: marked \`runs: in CI\` but not a line of .ci/run`,
          ).toBe(true)
      })
    } else if (example.marker?.kind === 'needs') {
      // Not run here: what it needs is named, and each need is one the marker vocabulary knows.
      const { what } = example.marker
      it(`${title} (needs ${what.join(', ')})`, () => {
        expect(what.filter((need) => !Object.hasOwn(NEEDS, need))).toEqual([])
      })
    } else if (mustNotRun(example.command) !== undefined) {
      it(title, () => {
        expect.fail(
          `${where(example)}: \`${example.command}\` is not run here: ${mustNotRun(example.command)}; mark it \`# runs: in <${Object.keys(RUNS).join(' | ')}>\` or \`# needs: …\``,
        )
      })
    } else {
      it(title, { timeout: EXAMPLE_TIMEOUT_MS + 30_000 }, async () => {
        const before = untracked(example.folder)
        const outcome = await runExample(example)
        const created = [...untracked(example.folder)].filter((file) => !before.has(file))
        const shown = `${where(example)}: \`${example.command}\` ${outcome.timedOut ? `did not finish within ${EXAMPLE_TIMEOUT_MS / 1000} s` : `exited with ${outcome.code}`}; fix the example or mark it (# needs: …, # runs: in …, # exits: N)\n${outcome.output}`
        expect(outcome.timedOut, shown).toBe(false)
        expect(outcome.code, shown).toBe(example.exitCode)
        // Not deleted here: in a shared checkout a new file may be someone else's.
        expect(
          created,
          `${where(example)}: the example wrote these files into the checkout; delete them, and make the example write elsewhere`,
        ).toEqual([])
      })
    }
  }
})

describe('how README examples are read', () => {
  const readme = [
    'text',
    '```sh',
    '# needs: network, publication',
    'npx -p @dsh-harden/cli dsh-harden --help',
    '',
    '# a plain comment',
    '# exits: 1',
    'dsh-harden lint \\',
    '  tests/fixtures/mixed.mjs   # trailing comment',
    '# need: network',
    'echo typo',
    '',
    '# needs: your files',
    'dsh-harden lint ./a.mjs',
    'dsh-harden lint ./b.mjs',
    '```',
    '```json',
    '{ "not": "a command" }',
    '```',
    '```bash',
    '# runs: in CI',
    'npm test',
    '```',
  ].join('\n')
  const read = shellExamples('X.md', readme, '/x')

  it('takes every command of sh and bash blocks, with its line, joined continuations and the markers of its group', () => {
    expect(read.map(({ line, command, marker, exitCode }) => ({ line, command, marker, exitCode }))).toEqual([
      {
        line: 4,
        command: 'npx -p @dsh-harden/cli dsh-harden --help',
        marker: { kind: 'needs', what: ['network', 'publication'] },
        exitCode: 0,
      },
      {
        line: 8,
        command: 'dsh-harden lint tests/fixtures/mixed.mjs   # trailing comment',
        marker: undefined,
        exitCode: 1,
      },
      { line: 11, command: 'echo typo', marker: undefined, exitCode: 1 },
      {
        line: 14,
        command: 'dsh-harden lint ./a.mjs',
        marker: { kind: 'needs', what: ['your files'] },
        exitCode: 0,
      },
      {
        line: 15,
        command: 'dsh-harden lint ./b.mjs',
        marker: { kind: 'needs', what: ['your files'] },
        exitCode: 0,
      },
      { line: 22, command: 'npm test', marker: { kind: 'runs', where: 'CI' }, exitCode: 0 },
    ])
  })

  it('flags a marker between two commands of a group as unclear, for every command of that group', () => {
    const text = [
      '## 1. Install',
      '```sh',
      'pnpm dsh-harden --help',
      '# exits: 1',
      'pnpm dsh-harden lint x.mjs',
      '',
      '# exits: 2',
      'first',
      'second',
      '',
      '# exits: 1',
      'alone',
      '```',
    ].join('\n')
    expect(
      shellExamples('Y.md', text, '/y').map(({ command, ambiguousMarkers, section }) => ({
        command,
        ambiguousMarkers,
        section,
      })),
    ).toEqual([
      {
        command: 'pnpm dsh-harden --help',
        ambiguousMarkers: ['# exits: 1 (after a command of its group)'],
        section: '1. Install',
      },
      {
        command: 'pnpm dsh-harden lint x.mjs',
        ambiguousMarkers: ['# exits: 1 (after a command of its group)'],
        section: '1. Install',
      },
      { command: 'first', ambiguousMarkers: [], section: '1. Install' },
      { command: 'second', ambiguousMarkers: [], section: '1. Install' },
      { command: 'alone', ambiguousMarkers: [], section: '1. Install' },
    ])
  })

  it('flags a marker outside the vocabulary', () => {
    expect(read.map((example) => example.badMarkers)).toEqual([[], [], ['# need: network'], [], [], []])
  })

  it('refuses to run the project runners and installs unmarked', () => {
    for (const command of [
      'npm test',
      'npm run regress',
      'pnpm regress -- --json',
      'pnpm --filter @dsh-harden/bench run bench',
      'pnpm add @dsh-harden/overlay',
      'sudo apt-get install chromium',
    ])
      expect(mustNotRun(command), command).toBeDefined()
    for (const command of ['pnpm dsh-harden lint ./my-plugin', 'dsh-harden --help', 'node src/main.ts'])
      expect(mustNotRun(command), command).toBeUndefined()
  })
})
