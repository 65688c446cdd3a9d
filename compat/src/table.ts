/**
 * The compatibility table: every listed tool of every server, on every profile, before and after, with the outside
 * judges' outcomes and the meaning-kept measurement. Everything is computed from the live `@dsh-harden/tools` when the
 * table runs; nothing here is a rule of its own.
 */
import { createHash } from 'node:crypto'
import {
  createToolContract,
  isPlainRecord,
  type JsonObject,
  judgeMcpToolList,
  PROFILE_IDS,
  type ProfileId,
  type ToolContract,
} from '@dsh-harden/tools'
import { isBlindSchema } from './blind.ts'
import type { ServerListing } from './collect.ts'
import { JUDGES, type Judge, type JudgeOutcome, judgesFor } from './judges/index.ts'
import { piAiSends, reachedThroughPiAi } from './judges/pi-ai.ts'
import { contractSamples, type Meaning, measureMeaning } from './meaning.ts'
import { type After, afterVerdict, type Before, beforeVerdict } from './verdicts.ts'

export interface JudgeResult {
  readonly judge: string
  readonly outcome: JudgeOutcome['outcome']
  /** The refusal message, or the first differences (`pointer kind value`). */
  readonly detail: readonly string[]
}

export interface Cell {
  readonly before: Before & { readonly judges: readonly JudgeResult[] }
  readonly after: After & {
    /** Id of the wire schema in `CompatReport.schemas`; absent when refused. */
    readonly wire?: string | undefined
    readonly judges: readonly JudgeResult[]
    readonly meaning?: Meaning | undefined
  }
}

export interface ToolReport {
  readonly name: string
  /** Id of the declared `inputSchema` (as listed) in `CompatReport.schemas`. */
  readonly declared: string
  /** Id of the schema dsh-harden serves (after MCP repairs); absent when refused at the boundary. */
  readonly served?: string | undefined
  /** The declared schema tells the model nothing about the arguments (`isBlindSchema`). */
  readonly blind: boolean
  readonly cells: Readonly<Record<ProfileId, Cell>>
}

export interface ServerReport {
  readonly id: string
  readonly packageName: string
  readonly packageVersion: string
  readonly serverName: string
  readonly serverVersion: string
  readonly sdkRejection?: string | undefined
  readonly failure?: string | undefined
  readonly tools: readonly ToolReport[]
}

export interface ProfileTotals {
  readonly tools: number
  readonly before: Readonly<Record<Before['verdict'], number>> & {
    readonly usable: number
    readonly lostAtIntake: number
    /** Usable by the route's verdict on what pi-ai sends; absent on routes DSH does not reach through pi-ai. */
    readonly usableViaPiAi?: number | undefined
  }
  readonly after: Readonly<Record<After['verdict'], number>> & {
    readonly usable: number
    /** Usable tools whose declared schema is blind: counted apart, never as meaning kept. */
    readonly blind: number
  }
  /**
   * Per judge of this route: usable tools (by the table's verdict) that the judge refuses, before and after, and
   * usable tools whose wire it would still change.
   */
  readonly judges: Readonly<
    Record<
      string,
      { readonly refusedBefore: number; readonly refusedAfter: number; readonly changedAfter: number }
    >
  >
  /** Usable tools that are not blind: measured (samples made) or unsampled. */
  readonly meaning: {
    readonly measured: number
    readonly keptAll: number
    readonly lost: number
    readonly offWire: number
    readonly unsampled: number
  }
}

export interface CompatReport {
  readonly generatedAt: string
  readonly profiles: readonly ProfileId[]
  readonly judges: readonly {
    readonly id: string
    readonly source: string
    readonly profiles: readonly ProfileId[]
    /** Schemas it judged in this run (0: it stands for no column of this run, so it did not run). */
    readonly runs: number
  }[]
  readonly servers: readonly ServerReport[]
  /** Every schema the report points at, by id (a content hash), stored once. */
  readonly schemas: Readonly<Record<string, unknown>>
  readonly totals: Readonly<Record<ProfileId, ProfileTotals>>
}

class SchemaStore {
  readonly byId: Record<string, unknown> = {}
  private readonly ids = new WeakMap<object, string>()
  add(schema: unknown): string {
    if (typeof schema === 'object' && schema !== null) {
      const known = this.ids.get(schema)
      if (known !== undefined) return known
    }
    const text = JSON.stringify(schema) ?? 'undefined'
    const id = createHash('sha256').update(text).digest('hex').slice(0, 16)
    this.byId[id] ??= schema === undefined ? null : schema
    if (typeof schema === 'object' && schema !== null) this.ids.set(schema, id)
    return id
  }
}

function judgeResult(judge: Judge, outcome: JudgeOutcome): JudgeResult {
  const detail =
    outcome.outcome === 'refused'
      ? [outcome.message]
      : outcome.outcome === 'changed'
        ? outcome.differences.slice(0, 8).map((d) => `${d.pointer || '(root)'} ${d.kind} ${d.value}`)
        : []
  return { judge: judge.id, outcome: outcome.outcome, detail }
}

async function runJudges(profile: ProfileId, schema: unknown, toolName: string): Promise<JudgeResult[]> {
  if (!isPlainRecord(schema)) return []
  const results: JudgeResult[] = []
  for (const judge of judgesFor(profile))
    results.push(judgeResult(judge, await judge.judge(schema as JsonObject, toolName, profile)))
  return results
}

export interface TableOptions {
  /** Called after each server (progress on the command line). */
  readonly onServer?: (server: ServerReport) => void
  readonly profiles?: readonly ProfileId[]
}

async function serverReport(
  listing: ServerListing,
  profiles: readonly ProfileId[],
  store: SchemaStore,
): Promise<ServerReport> {
  const byProfile = new Map(
    profiles.map((profile) => [profile, judgeMcpToolList(listing.tools, { profile })]),
  )
  const tools: ToolReport[] = []
  for (const [entry, listed] of listing.tools.entries()) {
    const name = typeof listed.name === 'string' ? listed.name : `#${entry}`
    const declared = listed.inputSchema
    let contract: ToolContract | undefined
    let samples: unknown[] = []
    let served: string | undefined
    const cells = {} as Record<ProfileId, Cell>
    for (const profile of profiles) {
      const verdict = byProfile.get(profile)![entry]!
      const after = afterVerdict(listed, verdict, profile)
      if (contract === undefined && verdict.tool !== undefined && after.verdict !== 'refused') {
        served = store.add(verdict.tool.inputSchema)
        try {
          contract = createToolContract(verdict.tool.inputSchema, { tool: name, source: listing.id })
          samples = contractSamples(contract)
        } catch (error) {
          // A served schema meets the root contract, so this is a bug in the boundary: say which tool.
          throw new Error(
            `compat: ${listing.id} / ${name}: the served schema does not compile into a contract: ${(error as Error).message}`,
            { cause: error },
          )
        }
      }
      const wire = verdict.projection?.input.wire
      const piAiSent =
        reachedThroughPiAi(profile) && isPlainRecord(declared)
          ? await piAiSends(declared as JsonObject, name, profile)
          : undefined
      const before = beforeVerdict(listed, profile, listing.sdkRejection, piAiSent)
      cells[profile] = {
        before: { ...before, judges: await runJudges(profile, declared, name) },
        after: {
          ...after,
          wire: wire === undefined ? undefined : store.add(wire),
          judges: wire === undefined ? [] : await runJudges(profile, wire, name),
          meaning:
            contract !== undefined && after.verdict !== 'refused'
              ? measureMeaning(contract, profile, samples)
              : undefined,
        },
      }
    }
    tools.push({ name, declared: store.add(declared), served, blind: isBlindSchema(declared), cells })
  }
  return {
    id: listing.id,
    packageName: listing.packageName,
    packageVersion: listing.packageVersion,
    serverName: listing.serverName,
    serverVersion: listing.serverVersion,
    sdkRejection: listing.sdkRejection,
    failure: listing.failure,
    tools,
  }
}

/** The per-profile counts the README's totals table and the page's header show. */
export function totalsOf(
  servers: readonly ServerReport[],
  profiles: readonly ProfileId[],
): Record<ProfileId, ProfileTotals> {
  const totals = {} as Record<ProfileId, ProfileTotals>
  for (const profile of profiles) {
    const before: { -readonly [K in keyof ProfileTotals['before']]: ProfileTotals['before'][K] } = {
      'as-is': 0,
      misread: 0,
      refused: 0,
      usable: 0,
      lostAtIntake: 0,
    }
    const after = { 'as-is': 0, repaired: 0, decoded: 0, refused: 0, usable: 0, blind: 0 }
    const meaning = { measured: 0, keptAll: 0, lost: 0, offWire: 0, unsampled: 0 }
    let tools = 0
    const judges: Record<string, { refusedBefore: number; refusedAfter: number; changedAfter: number }> = {}
    for (const judge of judgesFor(profile))
      judges[judge.id] = { refusedBefore: 0, refusedAfter: 0, changedAfter: 0 }
    for (const server of servers)
      for (const tool of server.tools) {
        const cell = tool.cells[profile]
        tools++
        before[cell.before.verdict]++
        if (cell.before.lostAtIntake) before.lostAtIntake++
        if (cell.before.viaPiAi !== undefined)
          before.usableViaPiAi =
            (before.usableViaPiAi ?? 0) + (cell.before.viaPiAi.verdict === 'refused' ? 0 : 1)
        if (cell.before.verdict !== 'refused') {
          before.usable++
          for (const result of cell.before.judges)
            if (result.outcome === 'refused' && judges[result.judge]) judges[result.judge]!.refusedBefore++
        }
        after[cell.after.verdict]++
        if (cell.after.verdict !== 'refused') {
          after.usable++
          for (const result of cell.after.judges) {
            const counts = judges[result.judge]
            if (counts === undefined) continue
            if (result.outcome === 'refused') counts.refusedAfter++
            else if (result.outcome === 'changed') counts.changedAfter++
          }
          const m = cell.after.meaning
          if (tool.blind) after.blind++
          else if (m === undefined || m.samples === 0) meaning.unsampled++
          else {
            meaning.measured++
            if (m.kept === m.samples) meaning.keptAll++
            else meaning.lost++
            if (m.offWire > 0) meaning.offWire++
          }
        }
      }
    totals[profile] = { tools, before, after, judges, meaning }
  }
  return totals
}

function judgeRuns(servers: readonly ServerReport[], judge: string): number {
  let runs = 0
  for (const server of servers)
    for (const tool of server.tools)
      for (const cell of Object.values<Cell>(tool.cells))
        for (const result of [...cell.before.judges, ...cell.after.judges]) if (result.judge === judge) runs++
  return runs
}

/** Judges every listing on every profile. */
export async function buildReport(
  listings: readonly ServerListing[],
  options: TableOptions = {},
): Promise<CompatReport> {
  const profiles = options.profiles ?? PROFILE_IDS
  const store = new SchemaStore()
  const servers: ServerReport[] = []
  for (const listing of listings) {
    const report = await serverReport(listing, profiles, store)
    servers.push(report)
    options.onServer?.(report)
  }
  return {
    generatedAt: new Date().toISOString(),
    profiles,
    judges: JUDGES.map(({ id, source, profiles: routes }) => ({
      id,
      source,
      profiles: routes.filter((route) => profiles.includes(route)),
      runs: judgeRuns(servers, id),
    })),
    servers,
    schemas: store.byId,
    totals: totalsOf(servers, profiles),
  }
}
