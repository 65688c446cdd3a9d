import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * What a marker comment on the line before a shell example may say. An example either runs verbatim in
 * `readme-examples.test.ts` or says, with one of these, what it needs that a test run does not have.
 */
export const NEEDS: Readonly<Record<string, string>> = {
  network: 'downloads from the npm registry or elsewhere',
  publication: 'the @dsh-harden packages on the npm registry (not published yet)',
  'a DSH profile': 'a DSH home with a profile and the real dsh app',
  'your files': "paths, servers or values of the reader's own (a plugin, a config, a <placeholder>)",
  'an MCP client': 'serves MCP on stdin/stdout until a client connects and closes it',
  'an MCP server': 'an MCP server listening at the URL it names',
  root: 'installs system packages',
}

/** `# runs: in <where>`: the command is itself one of the project's runners, so running it here would recurse. */
export const RUNS: Readonly<Record<string, string>> = {
  CI: 'a line of .ci/run, so CI runs it verbatim (checked)',
  'pnpm test': 'the test suite this test is part of',
  'pnpm regress': 'the regression report (minutes; installs the real DSH app)',
  'pnpm bench': 'the benchmarks (minutes; a ratio report, not pass/fail)',
  'the install walkthrough':
    "INSTALL.md's steps from nothing, run in order in one shell from an empty HOME by the regress row app-install-walkthrough",
}

export type Marker =
  | { readonly kind: 'needs'; readonly what: readonly string[] }
  | { readonly kind: 'runs'; readonly where: string }

export interface ShellExample {
  /** The README, relative to the repository root. */
  readonly readme: string
  /** 1-based line of the command's first line in the README. */
  readonly line: number
  /** The command as the reader copies it (continuation lines joined). */
  readonly command: string
  /** The folder the example is meant to run from: the README's own. */
  readonly folder: string
  readonly marker: Marker | undefined
  /** `# exits: N` before it: the exit code the example is documented to end with (default 0). */
  readonly exitCode: number
  /** A marker comment before it that is not in the vocabulary (the test fails on it). */
  readonly badMarkers: readonly string[]
  /**
   * Markers of its group that follow a command of the same group (the test fails on them): a reader cannot tell
   * whether such a marker is for the command above it or the ones below.
   */
  readonly ambiguousMarkers: readonly string[]
  /** The nearest Markdown heading above it (`## 1. …`), '' before the first. */
  readonly section: string
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.turbo', '.git', '.artifacts'])

/** The English READMEs whose examples are checked: the root ones, regress, bench, and every package's. */
export function readmeFiles(root: string): string[] {
  const files = ['README.md', 'INSTALL.md', 'regress/README.md', 'bench/README.md'].filter(exists(root))
  const stack = [join(root, 'packages')]
  while (stack.length > 0) {
    const dir = stack.pop()!
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) stack.push(join(dir, entry.name))
      else if (entry.isFile() && entry.name === 'README.md') files.push(relative(root, join(dir, entry.name)))
    }
  }
  return files.sort()
}

function exists(root: string): (file: string) => boolean {
  return (file) => {
    try {
      return statSync(join(root, file)).isFile()
    } catch {
      return false
    }
  }
}

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w-]*)/
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell'])
const MARKER = /^#\s*(needs?|runs?|exits?|requires?)\s*:\s*(.*?)\s*$/

/** Every command of every ```sh / ```bash / ```shell block of one README, with the marker comments before it. */
export function shellExamples(readme: string, text: string, folder: string): ShellExample[] {
  const examples: ShellExample[] = []
  const lines = text.split('\n')
  let fence: string | undefined
  let shell = false
  let pending: string[] = []
  let section = ''
  // The examples of the current group (lines up to a blank line) and the markers that came after one of them.
  let group: ShellExample[] = []
  let late: string[] = []
  const endGroup = () => {
    if (late.length > 0)
      for (const example of group)
        examples[examples.indexOf(example)] = { ...example, ambiguousMarkers: [...late] }
    group = []
    late = []
    pending = []
  }
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!
    const opening = FENCE.exec(raw)
    if (fence === undefined) {
      const heading = /^#{1,6}\s+(.*?)\s*$/.exec(raw)
      if (heading !== null) section = heading[1]!
      if (opening !== null) {
        fence = opening[1]!
        shell = SHELL_LANGUAGES.has(opening[2]!.toLowerCase())
        pending = []
      }
      continue
    }
    if (opening !== null && opening[1]!.startsWith(fence) && raw.trim() === opening[1]) {
      fence = undefined
      endGroup()
      continue
    }
    if (!shell) continue
    const trimmed = raw.trim()
    if (trimmed === '') {
      endGroup()
      continue
    }
    if (trimmed.startsWith('#')) {
      if (group.length > 0 && MARKER.test(trimmed)) late.push(`${trimmed} (after a command of its group)`)
      pending.push(trimmed)
      continue
    }
    const start = index
    let command = raw.trimEnd()
    while (command.endsWith('\\') && index + 1 < lines.length) {
      index++
      command = `${command.slice(0, -1)}${lines[index]!.trim()}`
    }
    // The marker comments since the last blank line apply to each command of that group.
    const example: ShellExample = {
      readme,
      line: start + 1,
      command: command.trim(),
      folder,
      section,
      ambiguousMarkers: [],
      ...readMarkers(pending),
    }
    examples.push(example)
    group.push(example)
  }
  endGroup()
  return examples
}

function readMarkers(comments: readonly string[]): Pick<ShellExample, 'marker' | 'exitCode' | 'badMarkers'> {
  let marker: Marker | undefined
  let exitCode = 0
  const badMarkers: string[] = []
  for (const comment of comments) {
    const match = MARKER.exec(comment)
    if (match === null) continue // a plain comment that describes the command
    const [, word, value] = match as unknown as [string, string, string]
    // A later marker of a group replaces an earlier one.
    if (word === 'needs') {
      const what = value.split(',').map((item) => item.trim())
      if (what.every((item) => item in NEEDS)) marker = { kind: 'needs', what }
      else badMarkers.push(comment)
    } else if (word === 'runs') {
      const where = /^in (.+)$/.exec(value)?.[1]
      if (where !== undefined && where in RUNS) marker = { kind: 'runs', where }
      else badMarkers.push(comment)
    } else if (word === 'exits' && /^\d{1,3}$/.test(value)) exitCode = Number(value)
    else badMarkers.push(comment)
  }
  return { marker, exitCode, badMarkers }
}

const RECURSIVE = [
  /^\s*(sudo\s+)?(apt|apt-get)\b/,
  /\b(npm|pnpm)\s+(test|t|install|i|ci|add|regress|bench|build)\b/,
  /\b(npm|pnpm)\b.*\brun\s+(test|regress|bench|build|bootstrap)\b/,
  /\bbootstrap\.mjs\b/,
]

/**
 * Why a command must be marked instead of run: it runs the project's own test, regress or bench (which would run
 * this test again, or for minutes), or installs into the checkout or the system.
 */
export function mustNotRun(command: string): string | undefined {
  return RECURSIVE.some((pattern) => pattern.test(command))
    ? "it runs the project's own tests, regress or bench, or installs packages"
    : undefined
}

/** Every shell example of every checked README under `root`. */
export function collectExamples(root: string): ShellExample[] {
  return readmeFiles(root).flatMap((readme) => {
    const folder = join(root, readme, '..')
    return shellExamples(readme, readFileSync(join(root, readme), 'utf8'), folder)
  })
}
