/**
 * The JSON types as bits, so the types a schema node admits are one number and a value's type is one test. `INTEGER`
 * is a bit of its own for the checks that tell an integer from other numbers; the others treat every number as
 * `NUMBER`.
 */
export const OBJECT = 1
export const ARRAY = 2
export const STRING = 4
export const NUMBER = 8
export const BOOLEAN = 16
export const NULL = 32
export const INTEGER = 64
