import { describeTool, type ToolIdentity, ToolSchemaError } from '../check/errors.ts'

/** One reason the arguments of a call do not match the declared parameters. */
export interface ArgumentViolation {
  /** JSON pointer into the arguments object. */
  readonly pointer: string
  /** The JSON Schema keyword that failed (`type`, `required`, `oneOf`, ...). */
  readonly keyword: string
  readonly message: string
}

export function formatArgumentViolation(violation: ArgumentViolation): string {
  return `${violation.pointer === '' ? '(arguments)' : violation.pointer} ${violation.message}`
}

/**
 * Shape-compatible with DSH's `ToolArgsError` (`packages/core/tools/src/schema.ts`): `name`, `code: 'INVALID_ARGS'`,
 * `violations: string[]`, a message starting "invalid arguments". Adds the tool, its source and structured details.
 */
export class ToolArgsError extends ToolSchemaError<ArgumentViolation> {
  override readonly name = 'ToolArgsError'
  readonly code = 'INVALID_ARGS'

  constructor(identity: ToolIdentity, details: readonly ArgumentViolation[]) {
    const violations = details.map(formatArgumentViolation)
    super(
      `invalid arguments for ${describeTool(identity)}: ${violations.join('; ')}`,
      identity,
      details,
      violations,
    )
  }
}
