import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { argumentsArbitrary } from './declared-values.ts'
import { jsonTextStrings } from './json-text-strings.ts'
import {
  createToolContract,
  type JsonValue,
  PROFILE_IDS,
  type ProfileId,
  type Projection,
  parsePointer,
  stockRouteVerdict,
  type ToolContract,
} from './tools.ts'
import { WireCheck } from './wire-check.ts'
import { encodeForWire, type Filled } from './wire-encoder.ts'

/**
 * The differential round trip, stock as the oracle for data. For each tool and route, values valid under the
 * declared schema are
 * - written as a model reading only the wire would write them (`wire-encoder.ts`), then read back by the contract
 *   (`normalizeArguments`): the reading must equal the value;
 * - sent verbatim, as stock DSH hands them to the tool on every route that takes the declared schema: the reading
 *   must equal what was sent.
 * Nothing is skipped: a value the wire cannot carry at all (a key a strict route closes out) is counted apart as
 * unsendable, and every other outcome is a match or a mismatch.
 */
export interface ToolUnderTest {
  readonly name: string
  readonly source: string
  readonly parameters: unknown
}

export interface RouteTally {
  readonly profile: ProfileId
  /** Encoded values read back. */
  checked: number
  mismatches: number
  /** Verbatim values read back on routes where stock sends the declared schema. */
  verbatim: number
  verbatimMismatches: number
  /**
   * Verbatim values holding JSON text in a slot the wire asks to be written as JSON text (`json-text-strings.ts`):
   * stock hands the string on, the wire means the value it spells, so only the encoded leg can judge them.
   */
  reencoded: number
  /** Valid values the wire schema has no way to write (a key a strict route closes out, a wire name taken twice). */
  unsendable: number
  /**
   * Values that leave out a key the strict wire requires and that admits a real `null`: the model can only write
   * `null`, which reads back as that `null` (the wire cannot say "not provided" there).
   */
  absentAsNull: number
  /** Tools the route does not get (the projection withheld them). */
  withheld: number
  /** The first few mismatches, each with the tool, what was meant, what was sent and what was read. */
  readonly examples: string[]
}

export interface RoundTripOptions {
  /** Values generated per tool (the valid ones are checked). */
  readonly valuesPerTool: number
  readonly seed: number
  /** Mismatches kept per route as examples (default 5). */
  readonly examples?: number | undefined
  /** Routes to check; default every `PROFILE_IDS` entry, read when the run starts. */
  readonly profiles?: readonly ProfileId[] | undefined
}

export interface RoundTripReport {
  readonly routes: readonly RouteTally[]
  /** Tools whose declared schema the contract refuses at register (they reach no route): `name: reason`. */
  readonly refused: readonly string[]
  /** Tools for which no generated value was valid (so nothing could be checked): `name`. */
  readonly unvalued: readonly string[]
}

/** Declared key → wire key, from the projection's own report of what it renamed (one table per tool). */
function renameTable(projection: Projection): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, string[]>()
  for (const change of projection.changes) {
    if (change.action !== 'renamed') continue
    const declared = parsePointer(change.pointer)?.at(-1)
    const wire = /^sent as ("(?:[^"\\]|\\.)*")/.exec(change.detail)?.[1]
    if (declared === undefined || wire === undefined) continue
    const names = table.get(String(declared)) ?? []
    names.push(JSON.parse(wire) as string)
    table.set(String(declared), names)
  }
  return table
}

function random(seed: number): (count: number) => number {
  let state = seed >>> 0
  return (count) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * count)
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text
}

function readBack(
  contract: ToolContract,
  sent: JsonValue,
  profile: ProfileId,
): { read: unknown } | { error: string } {
  try {
    return { read: contract.normalizeArguments(sent, profile) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * `value` with `null` at each filled path the reading kept: the model's `null` there is a real value wherever the
 * declared schema admits null (the others read back as "not provided" and are left out).
 */
function withNulls(value: JsonValue, filled: Filled, read: unknown): JsonValue {
  const copy = structuredClone(value)
  for (const path of filled) {
    let at: JsonValue = copy
    let there: unknown = read
    for (const key of path.slice(0, -1)) {
      at = (at as Record<string, JsonValue>)[key]!
      there = (there as Record<string, unknown> | undefined)?.[key]
    }
    const last = path.at(-1)!
    if (typeof there === 'object' && there !== null && Object.hasOwn(there, last))
      (at as Record<string, JsonValue>)[last] = null
  }
  return copy
}

function describe(outcome: { read: unknown } | { error: string }): string {
  return 'read' in outcome ? show(outcome.read) : `an error: ${outcome.error}`
}

function note(tally: RouteTally, text: string, kept: number): void {
  if (tally.examples.length < kept) tally.examples.push(text)
}

function checkRoute(
  tool: ToolUnderTest,
  contract: ToolContract,
  values: readonly JsonValue[],
  tally: RouteTally,
  seed: number,
  kept: number,
): void {
  const { profile } = tally
  const projection = contract.projection(profile)
  if (projection.withheld !== undefined) {
    tally.withheld++
    return
  }
  const stockSends = stockRouteVerdict(contract.declared, profile).verdict !== 'refused'
  const base = {
    root: projection.wire,
    check: new WireCheck(profile, projection.wire),
    renames: renameTable(projection),
    pick: random(seed),
    path: [],
  }
  for (const value of values) {
    const filled: Filled = []
    const encoded = encodeForWire(value, { ...base, filled })
    if ('unsendable' in encoded) tally.unsendable++
    else {
      const outcome = readBack(contract, encoded.sent, profile)
      const read = 'read' in outcome ? outcome.read : outcome
      if (isDeepStrictEqual(read, value)) tally.checked++
      else if (filled.length > 0 && isDeepStrictEqual(read, withNulls(value, filled, read)))
        tally.absentAsNull++
      else {
        tally.checked++
        tally.mismatches++
        note(
          tally,
          `${tool.name} (${tool.source}): meant ${show(value)}, sent ${show(encoded.sent)}, read ${describe(outcome)}`,
          kept,
        )
      }
    }
    if (!stockSends) continue
    if (jsonTextStrings(value, projection.wire, base.renames).length > 0) {
      tally.reencoded++
      continue
    }
    tally.verbatim++
    const outcome = readBack(contract, value, profile)
    if (!('read' in outcome) || !isDeepStrictEqual(outcome.read, value)) {
      tally.verbatimMismatches++
      note(
        tally,
        `${tool.name} (${tool.source}): sent verbatim ${show(value)}, read ${describe(outcome)}`,
        kept,
      )
    }
  }
}

/** Runs the round trip over `tools` on every route; counts, never throws on a mismatch. */
export function roundTrip(tools: Iterable<ToolUnderTest>, options: RoundTripOptions): RoundTripReport {
  const profiles = options.profiles ?? PROFILE_IDS
  const routes: RouteTally[] = profiles.map((profile) => ({
    profile,
    checked: 0,
    mismatches: 0,
    verbatim: 0,
    verbatimMismatches: 0,
    reencoded: 0,
    unsendable: 0,
    absentAsNull: 0,
    withheld: 0,
    examples: [],
  }))
  const refused: string[] = []
  const unvalued: string[] = []
  let toolIndex = 0
  for (const tool of tools) {
    const seed = options.seed + toolIndex++
    let contract: ToolContract
    try {
      contract = createToolContract(tool.parameters, { tool: tool.name, source: tool.source })
    } catch (error) {
      refused.push(
        `${tool.name} (${tool.source}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      )
      continue
    }
    const values = fc
      .sample(argumentsArbitrary(contract.declared), { numRuns: options.valuesPerTool, seed })
      .filter((value) => contract.validate(value).length === 0)
    if (values.length === 0) {
      unvalued.push(`${tool.name} (${tool.source})`)
      continue
    }
    for (const tally of routes) checkRoute(tool, contract, values, tally, seed, options.examples ?? 5)
  }
  return { routes, refused, unvalued }
}

/** One line per route: values checked, mismatches, and the rest of the tally. */
export function formatReport(title: string, report: RoundTripReport): string {
  const lines = [`round trip, ${title}:`]
  for (const route of report.routes)
    lines.push(
      `  ${route.profile.padEnd(14)} encoded ${String(route.checked).padStart(6)} mismatches ${route.mismatches}` +
        ` | verbatim ${String(route.verbatim).padStart(6)} mismatches ${route.verbatimMismatches}` +
        ` (JSON text in a JSON-text slot: ${route.reencoded})` +
        ` | unsendable ${route.unsendable} | withheld tools ${route.withheld}`,
    )
  if (report.refused.length > 0) lines.push(`  refused at register: ${report.refused.length}`)
  if (report.unvalued.length > 0) lines.push(`  no valid value generated: ${report.unvalued.join(', ')}`)
  return lines.join('\n')
}
