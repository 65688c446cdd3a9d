import { existsSync, type FSWatcher, mkdirSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type DshHome, profileDir, profilePatch } from '@dsh-harden/testkit/dsh-app'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, rejectionsOf, resultOk, resultsSeen, type Turn, toolsSent } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * A third-party tool plugin in the real app's loader (issue 9, items 1 and 5): one valid tool, one whose parameters
 * are a bare property table (DSH #297/#447), one with `required: true` inside a property. It is loaded the way a user
 * loads a plugin they wrote, by path in a profile row, in three placements:
 *   - fast: the module imports at once, so its `apply` runs before most of the ~80 built-in rows have started;
 *   - slow: a 2 s top-level `await` before the module finishes importing;
 *   - later layer: the row sits in a `--patch` overlay, the layer DSH applies after the profile's own.
 * Stock sends every tool as declared and DeepSeek (the local endpoint, `rejectionOf`) refuses the request. Hardened has
 * the overlay row first in the profile layer; each turn must then send only valid schemas, name each refused tool on
 * stderr, run the valid tool, and exit 0.
 */
export const PLUGIN_NAME = 'acme-dsh-tools'
export const VALID = 'acme_lookup'
/**
 * A valid tool whose schema nodes carry TypeBox's markers, as a plugin that builds its parameters with pi-ai's `Type`
 * (TypeBox 1.x: a non-enumerable `~kind`) or TypeBox 0.34 (`Symbol.for('TypeBox.Kind')`) registers them. Stock sends
 * it as the JSON it serializes to; the overlay once refused it over the markers.
 */
export const TYPED = 'acme_typed'
export const BROKEN = ['acme_bare_table', 'acme_required_true'] as const

/**
 * The plugin module's source; `delayMs` > 0 adds a top-level await before the module finishes importing, and
 * `appliedMarker` makes `apply` write that file once its tools are registered.
 */
export function pluginSource(delayMs: number, appliedMarker?: string): string {
  const wait = delayMs > 0 ? `await new Promise((resolve) => setTimeout(resolve, ${delayMs}))\n` : ''
  const marker =
    appliedMarker === undefined
      ? ''
      : `  import('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(appliedMarker)}, 'applied'))\n`
  return `${wait}export const name = ${JSON.stringify(PLUGIN_NAME)}
export const inject = ['tools']
const output = { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] }
const tool = (name, parameters) => ({ name, description: name, parameters, output, execute: async (args) => ({ got: args }) })
const hiddenKind = (node, kind) => Object.defineProperty(node, '~kind', { value: kind, enumerable: false })
export function apply(ctx) {
  ctx.tools.register(tool(${JSON.stringify(VALID)}, { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }))
  ctx.tools.register(tool(${JSON.stringify(TYPED)}, hiddenKind({ type: 'object', properties: { id: { type: 'string', [Symbol.for('TypeBox.Kind')]: 'String' } }, required: ['id'] }, 'Object')))
  ctx.tools.register(tool(${JSON.stringify(BROKEN[0])}, { q: { type: 'string' }, limit: { type: 'integer' } }))
  ctx.tools.register(tool(${JSON.stringify(BROKEN[1])}, { type: 'object', properties: { q: { type: 'string', required: true } } }))
${marker}}
`
}

export function pluginRow(file: string): string {
  return `    - id: acme\n      name: ${JSON.stringify(file)}\n`
}

type Where = 'profile' | 'later-layer' | 'hot-added'

interface Placement {
  readonly id: string
  readonly proves: string
  readonly delayMs: number
  /**
   * `profile`: a row in the profile's user layer. `later-layer`: a row in a `--patch` overlay. `hot-added`: the row is
   * written into the user layer while the turn runs (DSH watches that file through its `hmr` row and applies the
   * change to the live plugin tree); the model's first step waits until the plugin has applied.
   */
  readonly where: Where
}

const PLACEMENTS: readonly Placement[] = [
  {
    id: 'app-plugin-fast',
    proves:
      'a fast-importing third-party plugin with a bare property table and `required: true` in the real dsh loader',
    delayMs: 0,
    where: 'profile',
  },
  {
    id: 'app-plugin-slow',
    proves:
      'the same plugin behind a 2 s top-level await (it registers after the overlay) in the real dsh loader',
    delayMs: 2000,
    where: 'profile',
  },
  {
    id: 'app-plugin-later-layer',
    proves: 'the same plugin in a later patch layer (`dsh --patch`) than the overlay row',
    delayMs: 0,
    where: 'later-layer',
  },
  {
    id: 'app-plugin-hot-added',
    proves: 'the same plugin added to the profile while a session runs (DSH hot-reloads the user layer)',
    delayMs: 0,
    where: 'hot-added',
  },
]

/** Bound on waiting for a hot-added plugin to apply (a bound, not a synchronization: the marker file is the signal). */
const HOT_ADD_TIMEOUT_MS = 30_000

/**
 * Resolves `true` once `file` exists, `false` after `timeoutMs`: a directory watch wakes it on each entry change, and
 * the file is checked once right after the watch is set up, so a file created before that is seen too.
 */
export function waitForFile(file: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined
    let timer: NodeJS.Timeout | undefined
    const settle = (found: boolean) => {
      watcher?.close()
      clearTimeout(timer)
      resolve(found)
    }
    watcher = watch(dirname(file), () => {
      if (existsSync(file)) settle(true)
    })
    timer = setTimeout(() => settle(false), timeoutMs)
    if (existsSync(file)) settle(true)
  })
}

/**
 * Replaces the profile's user layer in one step: the new text goes to a sibling file that is then renamed over the
 * layer. DSH's watcher (cordis-plugin-hmr `registerConfig`, chokidar) re-reads the layer on the first change event
 * and drops further change events of the same file for 50 ms; a plain `writeFileSync` truncates first, so on a busy
 * machine DSH can read the layer empty (its reload fails: not a patch list) and never see the complete write. That
 * was the `app-plugin-hot-added` flake (issue 14, finding 9): the hot add never applied, in both legs.
 */
export function replaceUserLayer(home: DshHome, profile: string, rows: string): void {
  const layer = join(profileDir(home, profile), 'cordis.patch.yml')
  const next = `${layer}.next`
  writeFileSync(next, profilePatch(rows))
  renameSync(next, layer)
}

const SCRIPT = [{ toolCalls: [{ name: VALID, arguments: { q: 'weather' } }] }]

/** The stderr line that names `tool`, the plugin, and a JSON pointer (or the root), if any. */
export function namingLine(stderr: string, tool: string, plugin: readonly string[]): string | undefined {
  return stderr
    .split('\n')
    .find(
      (line) =>
        line.includes(tool) &&
        plugin.some((name) => line.includes(name)) &&
        /(^|[\s("'`])\/[A-Za-z0-9_~-]|\(root\)/.test(line),
    )
}

/** A leg's turn, and for a hot add whether the plugin was observed to apply (its marker file appeared). */
export interface LegRun {
  readonly turn: Turn
  readonly hotAdd?: { readonly applied: boolean; readonly ms: number }
}

function hotAddText(run: LegRun): string {
  if (run.hotAdd === undefined) return ''
  return run.hotAdd.applied
    ? `; hot add applied ${Math.round(run.hotAdd.ms)} ms after the layer was replaced`
    : `; hot add never applied (no marker within ${HOT_ADD_TIMEOUT_MS / 1000} s)`
}

export function stockLeg(run: LegRun): Observed {
  const { turn } = run
  const rejected = rejectionsOf(turn)
  const sentBroken = BROKEN.filter((tool) => toolsSent(turn).includes(tool))
  const fails = turn.run.exitCode !== 0 && rejected.length > 0
  return {
    outcome: fails ? 'every-turn-fails' : 'works',
    works: !fails,
    detail: `${describeTurn(turn)}; broken tools sent: ${sentBroken.join(', ') || 'none'}${hotAddText(run)}`,
  }
}

function hardenedLeg(run: LegRun): { leg: Observed; checks: Check[] } {
  const { turn } = run
  const sent = toolsSent(turn)
  const rejected = rejectionsOf(turn)
  const validCall = resultsSeen(turn.requests).get('call_0_0')
  const works =
    turn.run.exitCode === 0 && rejected.length === 0 && sent.includes(VALID) && resultOk(validCall)
  const refused = BROKEN.filter((tool) => !sent.includes(tool))
  const names = [PLUGIN_NAME, 'acme']
  const checks: Check[] = refused.map((tool) => ({
    what: `stderr names refused tool ${tool}, its plugin and a JSON pointer`,
    ok: namingLine(turn.run.stderr, tool, names) !== undefined,
  }))
  checks.push({
    what: `${VALID} is sent and its call works`,
    ok: sent.includes(VALID) && resultOk(validCall),
  })
  checks.push({
    what: `${TYPED}, whose schema carries TypeBox's hidden and symbol-keyed markers, is sent as stock sends it`,
    ok: sent.includes(TYPED),
  })
  return {
    leg: {
      outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : 'turn-fails',
      works,
      detail:
        `${describeTurn(turn)}; sent: ${[VALID, TYPED, ...BROKEN].filter((t) => sent.includes(t)).join(', ') || 'none of the plugin tools'}` +
        `; refused: ${refused.join(', ') || 'none'}; ${VALID} result: ${validCall === undefined ? 'never seen' : resultOk(validCall) ? 'ok' : validCall}` +
        hotAddText(run),
    },
    checks,
  }
}

export async function pluginRows(parts: AppRows): Promise<Row[]> {
  const dir = join(parts.home.root, 'acme-plugin')
  mkdirSync(dir, { recursive: true })
  const rows: Row[] = []
  for (const placement of PLACEMENTS) {
    const file = join(dir, `${placement.id}.mjs`)
    const applied = join(dir, `${placement.id}.applied`)
    writeFileSync(
      file,
      pluginSource(placement.delayMs, placement.where === 'hot-added' ? applied : undefined),
    )
    const layerFile = join(dir, `${placement.id}.patch.yml`)
    writeFileSync(layerFile, insertLayer(pluginRow(file)))
    const leg = async (profile: string, ours: string): Promise<LegRun> => {
      const withPlugin = insertLayer(ours + pluginRow(file))
      rmSync(applied, { force: true })
      switch (placement.where) {
        case 'profile':
          return { turn: await parts.turn({ profile, patch: withPlugin, script: SCRIPT }) }
        case 'later-layer':
          return {
            turn: await parts.turn({
              profile,
              patch: insertLayer(ours),
              patches: [layerFile],
              script: SCRIPT,
            }),
          }
        case 'hot-added': {
          let hotAdd = { applied: false, ms: 0 }
          const turn = await parts.turn({
            profile,
            patch: insertLayer(ours),
            script: SCRIPT,
            // The model's first step is held until the plugin's apply has run (its marker), or the bound passes.
            beforeStep: async () => {
              const started = performance.now()
              replaceUserLayer(parts.home, profile, withPlugin)
              const found = await waitForFile(applied, HOT_ADD_TIMEOUT_MS)
              hotAdd = { applied: found, ms: performance.now() - started }
            },
          })
          return { turn, hotAdd }
        }
      }
    }
    const stock = await leg(parts.stockProfile, '')
    const hardened = await leg(parts.hardenedProfile, parts.ours('@dsh-harden/overlay'))
    const observed = hardenedLeg(hardened)
    // A hot add that never applied proves nothing on either leg: the row cannot pass on it.
    const hotAddApplied: Check[] =
      placement.where === 'hot-added'
        ? [
            {
              what: 'the hot-added plugin applied in both legs (its apply wrote the marker before the first step was answered)',
              ok: stock.hotAdd?.applied === true && hardened.hotAdd?.applied === true,
            },
          ]
        : []
    rows.push({
      id: placement.id,
      group: GROUP,
      kind: 'fix',
      proves: placement.proves,
      source: 'issue 9 (items 1, 2, 5); DSH #297, #447',
      stock: stockLeg(stock),
      hardened: observed.leg,
      checks: [...hotAddApplied, ...observed.checks],
    })
  }
  return rows
}
