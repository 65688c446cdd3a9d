import { type JsonSchemaNode, validateJsonSchemaValue } from '@deepseek-ai/dsh-tools'
import type { FallbackValidator } from '@dsh-harden/tools'

/**
 * What checks a tool's arguments when ajv cannot compile its declared schema (a `$id` used twice, nesting deeper than
 * ajv's recursive compiler goes): DSH's own `validateJsonSchemaValue` (`packages/core/tools/src/json-schema.ts` in
 * `@deepseek-ai/dsh-tools`), which walks on an explicit stack. It reads DSH's enforced subset — `type`, `properties`,
 * `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf` — and passes keywords outside it unchecked.
 * Its messages carry their own path (`"arguments.a" must be a string`), so each violation points at the root.
 */
export const DSH_FALLBACK_VALIDATOR: FallbackValidator = {
  label: 'DSH validateJsonSchemaValue',
  validate: (schema, args) =>
    validateJsonSchemaValue(schema as JsonSchemaNode, args, 'arguments').map((message) => ({
      pointer: '',
      keyword: 'dsh',
      message,
    })),
}
