import { argumentCases } from './argument-cases.ts'
import type { Comparison, Side } from './harness.ts'
import {
  type PreparedCase,
  type PreparedTool,
  prepareCase,
  runBareAjv,
  runDsh,
  runParseArguments,
} from './validators.ts'

type Loop = (tools: readonly PreparedTool[], repetitions: number) => void

/** A side that calls one validator on every tool of the case, `repetitions` times; everything is compiled already. */
export function loopSide(
  label: string,
  loop: Loop,
  tools: readonly PreparedTool[],
  repetitions: number,
): Side {
  return {
    label,
    prepare: () => ({ run: () => loop(tools, repetitions), dispose() {} }),
  }
}

const OURS = 'parseArguments'
const ROUNDS = 60
// DSH's side is 20–50 ms per sample, and its ratio is far from 1, so fewer rounds settle it.
const DSH_ROUNDS = 20

function pairings(prepared: PreparedCase): Comparison[] {
  const { case: argumentCase, tools, dshTools } = prepared
  const { repetitions, dshRepetitions } = argumentCase
  const comparisons: Comparison[] = [
    {
      name: argumentCase.name,
      opsPerSample: tools.length * repetitions,
      peer: loopSide('bare ajv', runBareAjv, tools, repetitions),
      subject: loopSide(OURS, runParseArguments, tools, repetitions),
      warmup: 6,
      rounds: ROUNDS,
      notes: argumentCase.notes,
    },
  ]
  if (dshTools.length > 0) {
    comparisons.push({
      name: argumentCase.name,
      opsPerSample: dshTools.length * dshRepetitions,
      peer: loopSide(OURS, runParseArguments, dshTools, dshRepetitions),
      subject: loopSide('DSH validateJsonSchemaValue', runDsh, dshTools, dshRepetitions),
      warmup: 3,
      rounds: DSH_ROUNDS,
      notes: prepared.dshNotes,
    })
  }
  return comparisons
}

/**
 * The hot path of a tool call with the overlay: `contract.parseArguments(args, 'deepseek')` (decode, then the ajv
 * validator compiled once) on arguments that need no change, against bare compiled ajv and DSH's own
 * `validateJsonSchemaValue`. µs/op is one validator call.
 */
export async function validateComparisons(): Promise<Comparison[]> {
  const cases = (await argumentCases()).map(prepareCase)
  const byPair = [...cases.flatMap(pairings)]
  // One table per pair: every "vs bare ajv" row first, then every "DSH vs ours" row.
  return [
    ...byPair.filter((c) => c.peer.label === 'bare ajv'),
    ...byPair.filter((c) => c.peer.label === OURS),
  ]
}
