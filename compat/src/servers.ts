/**
 * The compatibility corpus: real MCP servers installed from npm (exact versions in this package's devDependencies),
 * each started over stdio with a throwaway working directory, `HOME` inside it, and dummy credentials. None of them is
 * written by this project, and none needs the network or a real account to answer `tools/list`: the ones that call a
 * remote API only do so when a tool is called.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import type { ServerDescriptor, ServerLaunch } from '@dsh-harden/testkit/mcp-servers'

const require = createRequire(import.meta.url)

/** Not a secret: the value every credential variable gets, so servers that insist on one start. */
export const DUMMY_CREDENTIAL = 'dummy-not-a-secret'

interface Manifest {
  readonly version: string
  readonly bin?: string | Readonly<Record<string, string>>
}

/**
 * The package's directory, found on Node's own lookup paths rather than through `require.resolve('<pkg>/package.json')`,
 * which fails for packages whose `exports` hide their manifest (several servers here do).
 */
function packageDir(packageName: string): string {
  for (const base of require.resolve.paths(packageName) ?? []) {
    const dir = join(base, packageName)
    if (existsSync(join(dir, 'package.json'))) return dir
  }
  throw new Error(
    `compat: MCP server package "${packageName}" is not installed (fix: run \`pnpm install\` at the repository root)`,
  )
}

function binOf(packageName: string, manifest: Manifest, binName: string | undefined): string {
  const { bin } = manifest
  if (typeof bin === 'string') return bin
  const entries = Object.entries(bin ?? {})
  // With several bins, the one named after the package is the server.
  const wanted = binName ?? (entries.length === 1 ? entries[0]?.[0] : packageName.split('/').at(-1))
  const picked = wanted === undefined ? undefined : bin?.[wanted]
  if (picked === undefined)
    throw new Error(
      `compat: cannot pick a bin of "${packageName}" from ${JSON.stringify(bin)} (fix: name one in servers.ts)`,
    )
  return picked
}

interface Entry {
  readonly id: string
  readonly packageName: string
  readonly binName?: string
  readonly args?: readonly string[]
  /** Extra variables; `HOME` and `TMPDIR` always point into the run's working directory. */
  readonly env?: Readonly<Record<string, string>> | ((workDir: string) => Readonly<Record<string, string>>)
  /** Prepares the working directory and returns extra arguments (the filesystem server's allowed root). */
  readonly prepare?: (workDir: string) => Promise<readonly string[]>
}

function describe(entry: Entry): ServerDescriptor {
  const dir = packageDir(entry.packageName)
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
  const binPath = resolve(dir, binOf(entry.packageName, manifest, entry.binName))
  const launch = async (workDir: string): Promise<ServerLaunch> => {
    const extra = entry.prepare ? await entry.prepare(workDir) : []
    return {
      args: [...(entry.args ?? []), ...extra],
      env: {
        HOME: workDir,
        TMPDIR: workDir,
        DO_NOT_TRACK: '1',
        ...(typeof entry.env === 'function' ? entry.env(workDir) : entry.env),
      },
    }
  }
  return { id: entry.id, packageName: entry.packageName, packageVersion: manifest.version, binPath, launch }
}

const token = (...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, DUMMY_CREDENTIAL]))

const ENTRIES: readonly Entry[] = [
  {
    id: 'playwright',
    packageName: '@playwright/mcp',
    // The browser starts on the first browser tool call, so listing needs no browser binary.
    args: ['--headless', '--isolated', '--browser', 'chromium'],
    prepare: async (workDir) => ['--output-dir', join(workDir, 'output')],
    env: (workDir) => ({ PLAYWRIGHT_BROWSERS_PATH: join(workDir, 'browsers') }),
  },
  { id: 'everything', packageName: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  {
    id: 'filesystem',
    packageName: '@modelcontextprotocol/server-filesystem',
    prepare: async (workDir) => {
      const root = join(workDir, 'root')
      await mkdir(root, { recursive: true })
      await writeFile(join(root, 'hello.txt'), 'hello\n')
      return [root]
    },
  },
  { id: 'memory', packageName: '@modelcontextprotocol/server-memory' },
  {
    id: 'sequential-thinking',
    packageName: '@modelcontextprotocol/server-sequential-thinking',
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
  },
  {
    id: 'github',
    packageName: '@modelcontextprotocol/server-github',
    env: token('GITHUB_PERSONAL_ACCESS_TOKEN'),
  },
  // A connection string is required; the pool connects only when a query runs.
  {
    id: 'postgres',
    packageName: '@modelcontextprotocol/server-postgres',
    args: ['postgresql://127.0.0.1:9/none'],
  },
  {
    id: 'google-maps',
    packageName: '@modelcontextprotocol/server-google-maps',
    env: token('GOOGLE_MAPS_API_KEY'),
  },
  {
    id: 'slack',
    packageName: '@modelcontextprotocol/server-slack',
    env: { ...token('SLACK_BOT_TOKEN'), SLACK_TEAM_ID: 'T00000000' },
  },
  {
    id: 'brave-search-legacy',
    packageName: '@modelcontextprotocol/server-brave-search',
    env: token('BRAVE_API_KEY'),
  },
  { id: 'brave-search', packageName: '@brave/brave-search-mcp-server', env: token('BRAVE_API_KEY') },
  { id: 'chrome-devtools', packageName: 'chrome-devtools-mcp' },
  { id: 'context7', packageName: '@upstash/context7-mcp' },
  { id: 'notion', packageName: '@notionhq/notion-mcp-server', env: token('NOTION_TOKEN') },
  { id: 'circleci', packageName: '@circleci/mcp-server-circleci', env: token('CIRCLECI_TOKEN') },
  { id: 'tavily', packageName: 'tavily-mcp', env: token('TAVILY_API_KEY') },
  { id: 'gitlab', packageName: '@zereight/mcp-gitlab', env: token('GITLAB_PERSONAL_ACCESS_TOKEN') },
  { id: 'firecrawl', packageName: 'firecrawl-mcp', env: token('FIRECRAWL_API_KEY') },
  { id: 'desktop-commander', packageName: '@wonderwhy-er/desktop-commander' },
  { id: 'sentry', packageName: '@sentry/mcp-server', env: token('SENTRY_ACCESS_TOKEN') },
  {
    id: 'launchdarkly',
    packageName: '@launchdarkly/mcp-server',
    args: ['start', '--api-key', DUMMY_CREDENTIAL],
  },
  { id: 'hello-world', packageName: 'mcp-hello-world' },
  { id: 'figma', packageName: 'figma-developer-mcp', args: ['--stdio'], env: token('FIGMA_API_KEY') },
  { id: 'eslint', packageName: '@eslint/mcp' },
  { id: 'antv-chart', packageName: '@antv/mcp-server-chart' },
  { id: 'exa', packageName: 'exa-mcp-server', env: token('EXA_API_KEY') },
  { id: 'code-runner', packageName: 'mcp-server-code-runner' },
  { id: 'drawio', packageName: '@drawio/mcp' },
  { id: 'shortcut', packageName: '@shortcut/mcp', env: token('SHORTCUT_API_TOKEN') },
  { id: 'perplexity', packageName: '@perplexity-ai/mcp-server', env: token('PERPLEXITY_API_KEY') },
  {
    id: 'jira',
    packageName: '@aashari/mcp-server-atlassian-jira',
    env: {
      ...token('ATLASSIAN_API_TOKEN'),
      ATLASSIAN_SITE_NAME: 'example',
      ATLASSIAN_USER_EMAIL: 'nobody@example.invalid',
    },
  },
  { id: 'next-devtools', packageName: 'next-devtools-mcp' },
]

/** Every server of the table, in report order. Resolving a descriptor reads only installed files. */
export function compatServers(): ServerDescriptor[] {
  return ENTRIES.map(describe)
}

/** The servers with these ids, in the order given (the fast unit test uses a few). */
export function compatServersById(ids: readonly string[]): ServerDescriptor[] {
  return ids.map((id) => {
    const entry = ENTRIES.find((candidate) => candidate.id === id)
    if (!entry) throw new Error(`compat: no server "${id}" (known: ${ENTRIES.map((e) => e.id).join(', ')})`)
    return describe(entry)
  })
}
