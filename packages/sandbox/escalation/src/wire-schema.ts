import { JUSTIFICATION, SANDBOX_PERMISSIONS } from './normalize.ts'

/** The optional argument denial-bound escalation adds: the one-shot token a sandbox denial returned. */
export const ESCALATION_TOKEN = 'escalation_token'

type Schema = Record<string, unknown>

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const NULL_HINT = ' Send null (or omit it) unless this call retries one the sandbox just denied.'

/** `{type:"string", enum}` → `{type:["string","null"], enum:[...enum, null]}`: the declared form; projection adapts it. */
export function widenToNullable(schema: Schema): Schema {
  const widened: Schema = { ...schema }
  if (typeof schema.type === 'string') widened.type = schema.type === 'null' ? 'null' : [schema.type, 'null']
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    widened.type = [...schema.type, 'null']
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null]
  if (typeof schema.description === 'string' && !schema.description.endsWith(NULL_HINT))
    widened.description = schema.description + NULL_HINT
  return widened
}

export interface EscalationSchemaOptions {
  /** Also advertise `escalation_token` (denial-bound escalation). */
  readonly denialBound?: boolean | undefined
  /** `command` (bash, pwsh) or `operation` (write, edit), as DSH words it. */
  readonly subject: string
}

/**
 * A tool's `parameters` with `sandbox_permissions` and `justification` admitting `null`, as a new object (the input
 * is not mutated). A tool that does not advertise the fields (no confining backend) is returned as it is: this never
 * advertises an escalation DSH does not offer. Neither field becomes required.
 */
export function escalationParameters(parameters: unknown, options: EscalationSchemaOptions): unknown {
  if (!isSchema(parameters) || !isSchema(parameters.properties)) return parameters
  const properties = parameters.properties
  const permissions = properties[SANDBOX_PERMISSIONS]
  const justification = properties[JUSTIFICATION]
  if (!isSchema(permissions) || !isSchema(justification)) return parameters
  const widened: Schema = {
    ...properties,
    [SANDBOX_PERMISSIONS]: widenToNullable(permissions),
    [JUSTIFICATION]: widenToNullable(justification),
  }
  if (options.denialBound === true) {
    widened[ESCALATION_TOKEN] = {
      type: ['string', 'null'],
      description:
        `Required with sandbox_permissions: the one-shot escalation token the sandbox returned when it denied this exact ` +
        `${options.subject}. Without a valid token, sandbox_permissions and justification are ignored and the ` +
        `${options.subject} runs in its current mode. Send null otherwise.`,
    }
  }
  return { ...parameters, properties: widened }
}
