import type { SchemaViolation } from '../check/violation.ts'
import type { JsonObject } from '../json/json-value.ts'
import { projectParameters } from '../projection/index.ts'
import { checkProfileContract } from '../projection/profile-contract.ts'
import type { ProfileId, Projection } from '../projection/types.ts'

/** The wire schemas of one served tool for one route. */
export interface RouteProjection {
  readonly input: Projection
  /** Absent when the tool has no output schema, or it could not be projected (then it is dropped). */
  readonly output?: Projection | undefined
}

export type RouteOutcome =
  | {
      readonly kind: 'projected'
      readonly projection: RouteProjection
      /** Set when the output schema could not be projected: the tool is served without it. */
      readonly outputDropped?: readonly SchemaViolation[] | undefined
    }
  | { readonly kind: 'refused'; readonly violations: readonly SchemaViolation[] }

/**
 * Projects a served tool's schemas for `profile` and checks the route's written contract on the result, so no entry
 * point ever serves a wire schema the route would refuse. Both schemas must already meet the root contract.
 */
export function projectForRoute(tool: Readonly<Record<string, unknown>>, profile: ProfileId): RouteOutcome {
  const input = projectChecked(tool.inputSchema as JsonObject, profile)
  if (input.kind === 'refused') return input
  if (tool.outputSchema === undefined) return { kind: 'projected', projection: { input: input.projection } }
  const output = projectChecked(tool.outputSchema as JsonObject, profile)
  if (output.kind === 'refused')
    return { kind: 'projected', projection: { input: input.projection }, outputDropped: output.violations }
  return { kind: 'projected', projection: { input: input.projection, output: output.projection } }
}

type Checked =
  | { readonly kind: 'projected'; readonly projection: Projection }
  | { readonly kind: 'refused'; readonly violations: readonly SchemaViolation[] }

function projectChecked(schema: JsonObject, profile: ProfileId): Checked {
  let projection: Projection
  try {
    projection = projectParameters(schema, profile)
  } catch (error) {
    return { kind: 'refused', violations: refusalOf(error) }
  }
  // Not projected, the schema goes out as stock DSH would send it; the check would read the same polluted keywords.
  if (projection.notProjected !== undefined) return { kind: 'projected', projection }
  if (projection.withheld !== undefined)
    return {
      kind: 'refused',
      violations: [
        {
          pointer: '',
          rule: 'wire-too-large',
          message: projection.withheld,
          hint: 'define each shared schema once and refer to it, or serve this tool on a route that takes `$ref`',
        },
      ],
    }
  // The projection's postcondition, checked at the boundary too: never serve what the route would refuse.
  const refused = checkProfileContract(projection.wire, profile)
  return refused.length > 0 ? { kind: 'refused', violations: refused } : { kind: 'projected', projection }
}

/** A projection that refuses says why (`JsonSchemaError.details`); anything else is reported by its message. */
function refusalOf(error: unknown): SchemaViolation[] {
  const details = (error as { details?: unknown } | null)?.details
  if (Array.isArray(details) && details.length > 0) return details as SchemaViolation[]
  return [
    {
      pointer: '',
      rule: 'projection-failed',
      message: `the projection failed: ${error instanceof Error ? error.message : String(error)}`,
      hint: 'simplify this schema, or report it to dsh-harden with the schema attached',
    },
  ]
}
