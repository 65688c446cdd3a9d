import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { toPointer } from '../json-pointer.ts'
import { type JsonObject, jsonText } from '../json-value.ts'
import { type Dialect, dialectOf } from '../keywords.ts'
import type { ArgumentViolation } from './tool-args-error.ts'

/**
 * Argument validation compiled once per distinct schema (ajv generates a function; calls are the cheap hot path),
 * and only when a tool is first called, so registering tools stays fast.
 */
export type ArgumentValidator = (args: unknown) => readonly ArgumentViolation[]

type AnyAjv = Ajv | Ajv2019 | Ajv2020

const engines = new Map<Dialect, AnyAjv>()
const compiled = new Map<string, ValidateFunction>()
const failures = new Map<string, unknown>()
// Shared by every valid call, so the hot path allocates nothing.
const NO_VIOLATIONS: readonly ArgumentViolation[] = Object.freeze([])

function engine(dialect: Dialect): AnyAjv {
  let ajv = engines.get(dialect)
  if (ajv === undefined) {
    // `validateSchema: false`: the shape check has already validated the schema at register, and ajv's meta-schema
    // check is quadratic in an `enum`'s length (its uniqueItems), 0.8 s at 20,000 values.
    const options = { strict: false, allErrors: true, logger: false as const, validateSchema: false }
    ajv =
      dialect === '2020-12'
        ? new Ajv2020(options)
        : dialect === '2019-09'
          ? new Ajv2019(options)
          : new Ajv(options)
    addFormats.default(ajv)
    engines.set(dialect, ajv)
  }
  return ajv
}

function toViolation(error: ErrorObject): ArgumentViolation {
  const missing =
    error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined
  const pointer = missing === undefined ? error.instancePath : `${error.instancePath}${toPointer([missing])}`
  const message =
    missing === undefined ? (error.message ?? `fails ${error.keyword}`) : 'is required but missing'
  return { pointer, keyword: error.keyword, message }
}

/** Compiles (or reuses) the validator for a declared schema. Throws what ajv throws for a schema it cannot compile. */
export function compileValidator(schema: JsonObject): ArgumentValidator {
  const key = jsonText(schema)
  let validate = compiled.get(key)
  if (validate === undefined) {
    // A schema ajv failed on fails the same way again: remembered, so registering it again costs no second attempt.
    if (failures.has(key)) throw failures.get(key)
    const declared = typeof schema.$schema === 'string' ? dialectOf(schema.$schema) : undefined
    // Two tools may reuse one `$id` for different schemas; ajv keys compiled schemas by it, and local refs need none.
    const { $id: _id, ...anonymous } = schema
    try {
      validate = engine(declared ?? 'draft-07').compile(anonymous)
    } catch (error) {
      failures.set(key, error)
      throw error
    }
    compiled.set(key, validate)
  }
  const run = validate
  return (args) => {
    let valid: boolean
    try {
      valid = run(args) as boolean
    } catch (error) {
      // ajv's generated code recurses with the data along recursive references (and forever on a schema that refers
      // to itself without consuming data): report that as a violation instead of throwing RangeError at the caller.
      if (!(error instanceof RangeError)) throw error
      return [{ pointer: '', keyword: '$ref', message: `could not be validated: ${error.message}` }]
    }
    return valid ? NO_VIOLATIONS : (run.errors ?? []).map(toViolation)
  }
}
