import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ScriptedToolCall } from '../model-script.ts'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, resultOk, resultsSeen, type Turn } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * Model tool calls the bug reports quote, replayed by the endpoint into the real app's own tools, one call per model
 * step; what each call returned is read from the next request (`role:"tool"`), files from the workspace.
 *
 *  - #1122 through the app's real `dsh-tool-cordis` (over the real `dsh-cordis-host-runner`, both rows added to the
 *    profile by package name, resolved from the app's install): `cordis_inspect_query.input` and
 *    `cordis_define.plugin` sent as JSON text, each with its control (the same call with a proper object).
 *  - #1149 through the app's real `bash`, `write` and `edit` over the app's real sandbox (`dsh-sandbox-local`,
 *    Landlock here; `DSH_PERMISSION_MODE` unset, so the base bundle's `workspace-write`): escalation fields the model
 *    materialized as `{"sandbox_permissions":"workspace-write","justification":""}`, and both fields `null`.
 * Hardened adds the overlay and `@dsh-harden/tool-bash` / `@dsh-harden/tool-fs` rows, as installed by `dsh plugin add`.
 */
interface Probe {
  readonly label: string
  readonly call: ScriptedToolCall
  /** A workspace file the call must leave behind, with its content. */
  readonly file?: readonly [string, string]
}

interface CallRow {
  readonly id: string
  readonly proves: string
  readonly source: string
  /** The calls under test; every one must work. */
  readonly probes: readonly Probe[]
  /** Calls that work stock and must keep working (controls). */
  readonly controls: readonly Probe[]
}

const HOST_CODE = 'return { apply() {} }'
const inspect = (input: unknown): ScriptedToolCall => ({
  name: 'cordis_inspect_query',
  arguments: { platform: 'host', provider: 'Service', method: 'listService', input },
})
const define = (plugin: unknown, name: string): ScriptedToolCall => ({
  name: 'cordis_define',
  arguments: { plugin, name, purpose: 'Probe how the plugin reference arrives.', code: { host: HOST_CODE } },
})

const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }
const NULLS = { sandbox_permissions: null, justification: null }
const bash = (command: string, extra: object): ScriptedToolCall => ({
  name: 'bash',
  arguments: { command, description: 'Write a file', ...extra },
})
const write = (file: string, content: string, extra: object = {}): ScriptedToolCall => ({
  name: 'write',
  arguments: { file_path: file, content, ...extra },
})
const edit = (file: string, from: string, to: string, extra: object): ScriptedToolCall => ({
  name: 'edit',
  arguments: { file_path: file, old_string: from, new_string: to, ...extra },
})

export const CORDIS_ROWS: readonly CallRow[] = [
  {
    id: 'app-cordis-input-1122',
    proves: 'the real app runs `cordis_inspect_query` when the model sends `input` as JSON text',
    source: 'DSH #1122',
    probes: [{ label: 'input as JSON text', call: inspect('{"service":"tools"}') }],
    controls: [{ label: 'input as object', call: inspect({ service: 'tools' }) }],
  },
  {
    id: 'app-cordis-plugin-1122',
    proves: 'the real app runs `cordis_define` when the model sends `plugin` as JSON text',
    source: 'DSH #1122',
    probes: [{ label: 'plugin as JSON text', call: define('{"kind":"new","idPrefix":"abc"}', 'probe') }],
    controls: [{ label: 'plugin as object', call: define({ kind: 'new', idPrefix: 'abd' }, 'control') }],
  },
]

const PLAIN_WRITE: Probe = { label: 'plain write', call: write('e.txt', 'old'), file: ['e.txt', 'old'] }

export const ESCALATION_ROWS: readonly CallRow[] = [
  {
    id: 'app-bash-1149',
    proves:
      'the real app’s `bash` over the real sandbox runs calls with materialized or null escalation fields',
    source: 'DSH #1149',
    probes: [
      { label: 'materialized', call: bash('echo hi > f.txt', MATERIALIZED), file: ['f.txt', 'hi\n'] },
      { label: 'null fields', call: bash('echo n > n.txt', NULLS), file: ['n.txt', 'n\n'] },
    ],
    controls: [{ label: 'no fields', call: bash('echo p > p.txt', {}), file: ['p.txt', 'p\n'] }],
  },
  {
    id: 'app-write-1149',
    proves:
      'the real app’s `write` over the real sandbox runs calls with materialized or null escalation fields',
    source: 'DSH #1149',
    probes: [
      { label: 'materialized', call: write('g.txt', 'x', MATERIALIZED), file: ['g.txt', 'x'] },
      { label: 'null fields', call: write('h.txt', 'y', NULLS), file: ['h.txt', 'y'] },
    ],
    controls: [PLAIN_WRITE],
  },
  {
    id: 'app-edit-1149',
    proves:
      'the real app’s `edit` over the real sandbox runs calls with materialized or null escalation fields',
    source: 'DSH #1149',
    // The plain write first: DSH's fs-observation-policy lets a session edit a file it created.
    probes: [
      { label: 'materialized', call: edit('e.txt', 'old', 'new', MATERIALIZED) },
      { label: 'null fields', call: edit('e.txt', 'new', 'newer', NULLS), file: ['e.txt', 'newer'] },
    ],
    controls: [PLAIN_WRITE],
  },
]

/** Every call of a set of rows, in script order, each call once (rows may share a control). */
function scriptOf(rows: readonly CallRow[]): Probe[] {
  const ordered: Probe[] = []
  for (const row of rows)
    for (const probe of [...row.controls, ...row.probes]) if (!ordered.includes(probe)) ordered.push(probe)
  return ordered
}

interface CallOutcome {
  readonly ok: boolean
  readonly text: string
}

/** A probe's file as the call left it, or `undefined` when it has none or the file is absent. */
function readProbeFile(probe: Probe | undefined, workspace: string): string | undefined {
  const file = probe?.file?.[0]
  const path = file === undefined ? undefined : join(workspace, file)
  return path !== undefined && existsSync(path) ? readFileSync(path, 'utf8') : undefined
}

/**
 * What each call did in a turn: its result as the model saw it, and the file it had to leave. `leftBehind` holds
 * each file as read right after its call (before a later call of the same turn could change it); a probe missing
 * there (the last call) is read after the run.
 */
function outcomes(
  turn: Turn,
  probes: readonly Probe[],
  workspace: string,
  leftBehind: ReadonlyMap<Probe, string | undefined>,
): Map<Probe, CallOutcome> {
  const seen = resultsSeen(turn.requests)
  const done = new Map<Probe, CallOutcome>()
  probes.forEach((probe, step) => {
    const result = seen.get(`call_${step}_0`)
    const [file, content] = probe.file ?? []
    const left = leftBehind.has(probe) ? leftBehind.get(probe) : readProbeFile(probe, workspace)
    const fileOk = file === undefined || left === content
    const ok = resultOk(result) && fileOk
    const text =
      result === undefined
        ? 'no result seen'
        : ok
          ? 'ok'
          : fileOk
            ? result
            : `${result} (file ${file} not as expected)`
    done.set(probe, { ok, text })
  })
  return done
}

function leg(row: CallRow, turn: Turn, done: Map<Probe, CallOutcome>): Observed {
  const results = row.probes.map((probe) => ({ probe, outcome: done.get(probe) }))
  const works = results.every((r) => r.outcome?.ok === true)
  return {
    outcome: works ? 'calls-work' : 'call-fails',
    works,
    detail: `${results.map((r) => `${r.probe.label}: ${r.outcome?.text ?? 'not run'}`).join('; ')} (${describeTurn(turn)})`,
  }
}

function controlsHold(row: CallRow, legs: readonly Map<Probe, CallOutcome>[]): Check[] {
  return row.controls.map((probe) => ({
    what: `control (${probe.label}) works on both legs`,
    ok: legs.every((done) => done.get(probe)?.ok === true),
  }))
}

/** One stock and one hardened turn for a set of rows; the workspace is emptied before each. */
async function runRows(
  parts: AppRows,
  rows: readonly CallRow[],
  stockPatch: string,
  hardenedPatch: string,
): Promise<Row[]> {
  const probes = scriptOf(rows)
  const script = probes.map((probe) => ({ toolCalls: [probe.call] }))
  const turnFor = async (profile: string, patch: string) => {
    rmSync(parts.home.workspace, { recursive: true, force: true })
    const { mkdirSync } = await import('node:fs')
    mkdirSync(parts.home.workspace)
    // Step n is answered once call n-1's result is back: read the file call n-1 left, before call n runs.
    const leftBehind = new Map<Probe, string | undefined>()
    const beforeStep = async (step: number) => {
      const previous = probes[step - 1]
      if (previous !== undefined) leftBehind.set(previous, readProbeFile(previous, parts.home.workspace))
    }
    const turn = await parts.turn({ profile, patch, script, beforeStep })
    return { turn, done: outcomes(turn, probes, parts.home.workspace, leftBehind) }
  }
  const stock = await turnFor(parts.stockProfile, stockPatch)
  const hardened = await turnFor(parts.hardenedProfile, hardenedPatch)
  return rows.map((row) => ({
    id: row.id,
    group: GROUP,
    kind: 'fix',
    proves: row.proves,
    source: row.source,
    stock: leg(row, stock.turn, stock.done),
    hardened: leg(row, hardened.turn, hardened.done),
    checks: controlsHold(row, [stock.done, hardened.done]),
  }))
}

const CORDIS_ROWS_YAML =
  "    - id: cordis-host-runner\n      name: '@deepseek-ai/dsh-cordis-host-runner'\n" +
  "    - id: tool-cordis\n      name: '@deepseek-ai/dsh-tool-cordis'\n"

export function cordisRows(parts: AppRows): Promise<Row[]> {
  const hardened = insertLayer(parts.ours('@dsh-harden/overlay') + CORDIS_ROWS_YAML)
  return runRows(parts, CORDIS_ROWS, insertLayer(CORDIS_ROWS_YAML), hardened)
}

export function escalationRows(parts: AppRows): Promise<Row[]> {
  const hardened = insertLayer(
    parts.ours('@dsh-harden/overlay', '@dsh-harden/tool-bash', '@dsh-harden/tool-fs'),
  )
  return runRows(parts, ESCALATION_ROWS, '', hardened)
}
