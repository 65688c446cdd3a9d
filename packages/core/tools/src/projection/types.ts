import type { JsonObject, JsonValue } from '../json/json-value.ts'

/**
 * The model routes DSH users run (cloud APIs, local engines, and `conservative` for a route nothing places), plus
 * `dsh-subset`: exactly what DSH's own `assertSupportedJsonSchema` accepts.
 */
export type ProfileId =
  | 'deepseek'
  | 'openai'
  | 'openai-strict'
  | 'codex'
  | 'anthropic'
  | 'gemini'
  | 'moonshot'
  | 'ollama'
  | 'llama-cpp'
  | 'vllm'
  | 'conservative'
  | 'dsh-subset'

export const PROFILE_IDS: readonly ProfileId[] = [
  'deepseek',
  'openai',
  'openai-strict',
  'codex',
  'anthropic',
  'gemini',
  'moonshot',
  'ollama',
  'llama-cpp',
  'vllm',
  'conservative',
  'dsh-subset',
]

/** One thing projection did to a declared schema, for reports (`dsh-harden sanitize`) and logs. */
export interface ProjectionChange {
  /** JSON pointer into the declared schema. */
  readonly pointer: string
  readonly action:
    | 'dropped' // pure metadata the route does not need ($schema, $id, $comment, ...)
    | 'spilled' // a constraint the route cannot take, moved into `description` and kept for local validation
    | 'inlined-ref' // a local $ref replaced by the schema it names
    | 'encoded-json' // an any-JSON (or inexpressible) slot sent as JSON text, decoded on the way back
    | 'widened-nullable' // an optional field that also admits null on the wire; null is read back as "not provided"
    | 'converted' // the same meaning in the route's vocabulary (type list -> anyOf, oneOf -> anyOf, const -> enum, ...)
    | 'closed-object' // strict routes: additionalProperties false and every property listed in required
    | 'renamed' // a property key the route refuses, renamed on the wire and mapped back by the decoder
  readonly keyword?: string | undefined
  readonly detail: string
}

/**
 * How to read arguments shaped by the wire schema back into the declared shape. Subtrees where nothing was encoded
 * are `identity`, so arguments that need no change cost one walk of the encoded slots only.
 */
export type Decoder =
  | { readonly kind: 'identity' }
  | { readonly kind: 'json-text' }
  | {
      readonly kind: 'object'
      readonly properties: ReadonlyMap<string, Decoder>
      readonly additional: Decoder
      /** Keys that are optional in the declared schema, do not admit null there, and admit null on the wire. */
      readonly syntheticNull: ReadonlySet<string>
      /**
       * Wire key → declared key, for keys the route refuses and projection renamed (`renameAll`); `properties` and
       * `syntheticNull` are keyed by the wire key.
       */
      readonly renamed?: ReadonlyMap<string, string> | undefined
      /**
       * Wire keys the wire object requires (absent: none). An object value that lacks one was not sent for this
       * object, so a union with another branch for objects does not read it with this decoder.
       */
      readonly required?: readonly string[] | undefined
    }
  | { readonly kind: 'array'; readonly prefix: readonly Decoder[]; readonly items: Decoder }
  | {
      readonly kind: 'union'
      readonly branches: readonly Decoder[]
      /**
       * The JSON types each branch's wire schema takes (`undefined`: any), so reading a value back picks the branches
       * its type can belong to without validating. Absent: inferred from each branch decoder's kind.
       */
      readonly types?: readonly (readonly string[] | undefined)[] | undefined
      /**
       * The declared schema node of the union (absent: any value): a string that one branch takes as it is and
       * another as JSON text is parsed only when it parses to a value that fits it (`read/declared-shape.ts`).
       */
      readonly declared?: JsonValue | undefined
      /**
       * Built by reading, when it merges one key of several object branches (`read/union-reading.ts`): there is
       * no declared node to judge by, so a string one branch takes as it is and another as JSON text could be read two
       * ways, and stays as sent.
       */
      readonly merged?: true | undefined
    }

export interface Projection {
  /** The schema to send; the very same object as the declared one when the route accepts it as it is. */
  readonly wire: JsonObject
  readonly decoder: Decoder
  readonly changes: readonly ProjectionChange[]
  /**
   * Set when the schema was not projected at all and goes out as declared, as stock DSH sends it: why. Projection
   * reads keywords as properties, so it does not run while `Object.prototype` carries enumerable keys.
   */
  readonly notProjected?: string | undefined
  /**
   * Set when the route needs `$ref`s inlined and the inlined wire would pass the byte budget (`byte-budget.ts`): the
   * tool must not be offered on this route, and this notice (naming its size and the budget) says why. `wire` is
   * then the declared schema, as stock DSH would send it, for a host that does not know this field.
   */
  readonly withheld?: string | undefined
}
