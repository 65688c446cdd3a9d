/**
 * Meaning kept: arguments that validate against the declared schema go out through the projection (the simulated
 * model answer on the wire shape) and come back through the contract's `normalizeArguments`; they must come back
 * equal. The answer must also be one the wire schema admits, or the model could not have sent it.
 */
import type { ProfileId, ToolContract } from '@dsh-harden/tools'
import { jsonEqual } from './diff.ts'
import { validSamples } from './samples.ts'
import { encode, wireValidator } from './wire-answer.ts'

export interface MeaningLoss {
  /** What the declared schema meant. */
  readonly args: unknown
  /** What the model sent on the wire. */
  readonly answer: unknown
  /** What `normalizeArguments` read back. */
  readonly readBack: unknown
}

export interface Meaning {
  /** Samples that validate against the declared schema (0: the generator found none; the cell is unmeasured). */
  readonly samples: number
  /** Samples read back equal to what they meant. */
  readonly kept: number
  /** Answers the wire schema would not admit (the projection promised a shape the model cannot meet). */
  readonly offWire: number
  readonly lost?: MeaningLoss | undefined
  readonly offWireExample?: { readonly answer: unknown; readonly error: string } | undefined
}

/** Samples for a contract's declared schema, generated once and shared by every route. */
export function contractSamples(contract: ToolContract): unknown[] {
  return validSamples(contract.declared, (args) => contract.validate(args).length === 0)
}

export function measureMeaning(
  contract: ToolContract,
  profile: ProfileId,
  samples: readonly unknown[],
): Meaning {
  const { wire, decoder } = contract.projection(profile)
  const validate = wireValidator(wire)
  let kept = 0
  let offWire = 0
  let lost: MeaningLoss | undefined
  let offWireExample: Meaning['offWireExample']
  for (const args of samples) {
    const answer = encode(args, decoder, wire)
    if (validate !== null && !validate(answer)) {
      offWire++
      const error = validate.errors?.[0]
      offWireExample ??= {
        answer,
        error: error ? `${error.instancePath || '(root)'} ${error.message}` : 'invalid',
      }
    }
    const readBack = contract.normalizeArguments(answer, profile)
    if (jsonEqual(readBack, args)) kept++
    else lost ??= { args, answer, readBack }
  }
  return { samples: samples.length, kept, offWire, lost, offWireExample }
}
