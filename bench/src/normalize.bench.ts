import { argumentCases } from './argument-cases.ts'
import type { Comparison } from './harness.ts'
import { loopSide } from './validate.bench.ts'
import { PROFILE, prepareCase, runContractValidate, runNormalizeArguments } from './validators.ts'

/**
 * What reading arguments back costs on top of validating them, on arguments that need no change.
 * `normalizeArguments` = `decodeValue(args, projection.decoder)` + the same compiled validator + a reading record;
 * `decodeValue` is not exported from `@dsh-harden/tools`, so decode is measured as the difference:
 * overhead = ratio − 1 (as a fraction of validation), added µs/op = decode cost per call.
 */
export async function normalizeComparisons(): Promise<Comparison[]> {
  const cases = (await argumentCases()).map(prepareCase)
  return cases.map(({ case: argumentCase, tools }) => {
    const decoders = new Map<string, number>()
    for (const tool of tools) {
      const { kind } = tool.contract.projection(PROFILE).decoder
      decoders.set(kind, (decoders.get(kind) ?? 0) + 1)
    }
    return {
      name: argumentCase.name,
      opsPerSample: tools.length * argumentCase.repetitions,
      peer: loopSide('contract.validate', runContractValidate, tools, argumentCase.repetitions),
      subject: loopSide('normalizeArguments', runNormalizeArguments, tools, argumentCase.repetitions),
      warmup: 6,
      rounds: 60,
      notes: [
        `${PROFILE} root decoders: ${[...decoders].map(([kind, count]) => `${kind} × ${count}`).join(', ')} (identity: decode returns the arguments untouched)`,
      ],
    }
  })
}
