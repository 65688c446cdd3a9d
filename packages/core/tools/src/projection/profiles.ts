import { type NameRule, nameRule } from './names.ts'
import type { RegexFeature } from './regex-features.ts'
import type { ProfileId } from './types.ts'

/**
 * What each model route accepts in a tool's parameters, as data. `checkProfileContract` enforces it and
 * `projectParameters` rewrites a schema until it holds. Sources for every rule are in PROFILES.md; where sources
 * conflict, the rule takes the side that cannot make the route reject the request.
 */
export interface ProfileRules {
  readonly id: ProfileId
  /** Non-structural keywords the route takes as they are; any other validation keyword is spilled into `description`. */
  readonly keeps: ReadonlySet<string>
  /** How a slot that admits any JSON value goes on the wire. */
  readonly anyJson: 'json-text' | 'untyped'
  /** How a `type` list goes on the wire. */
  readonly typeLists: 'keep' | 'split-any-of' | 'split-one-of'
  /** Which union keyword the route takes (`oneOf` becomes `anyOf` where only `anyOf` is understood). */
  readonly unions: 'any-of-and-one-of' | 'any-of' | 'one-of'
  /** A node may carry `type` (or object keywords) beside `anyOf`/`oneOf`. */
  readonly typeBesideUnion: boolean
  /** OpenAI strict mode: every object closed, every property required, optional ones nullable. */
  readonly strictObjects: boolean
  /** Routes that fill declared optional fields (#1149): optional fields also admit `null`, read back as absent. */
  readonly nullableOptionals: boolean
  /** Every node needs a `type` (Gemini, OpenAI strict), so arrays need `items` and objects need `properties`. */
  readonly typedEverywhere: boolean
  /** `enum` may only list strings (Gemini). */
  readonly enumStringsOnly: boolean
  /** `const` is not understood; a string `const` becomes a one-value `enum`. */
  readonly constAsEnum: boolean
  /** Tuple `items: [...]` (draft-07) is understood; `prefixItems` replaces it where 2020-12 is required. */
  readonly tuples: 'items-array' | 'prefix-items' | 'none'
  /** Boolean schemas (`true`/`false`) are understood. */
  readonly booleanSchemas: boolean
  /** Formats the route accepts; `undefined` means any string. */
  readonly formats: ReadonlySet<string> | undefined
  /** `type: "null"` as a type of its own; Gemini writes `nullable: true` instead. */
  readonly nullType: 'type' | 'nullable'
  /** `additionalProperties` may hold a schema (not just a boolean). */
  readonly schemaValuedAdditional: boolean
  /** Every name in `required` must be a declared property (DSH's subset; OpenAI strict). */
  readonly requiredDeclaredOnly: boolean
  /** An array needs `items` even where other nodes may go untyped (OpenAI: "array schema missing items"). */
  readonly arraysNeedItems: boolean
  /** Regex constructs the route's engine refuses in `pattern`: such a pattern is spilled and enforced locally. */
  readonly refusedPatterns: ReadonlySet<RegexFeature>
  /** Property keys the route takes, at every depth; other keys are renamed on the wire and mapped back. */
  readonly propertyKeys: NameRule | undefined
  /** Tool names the route takes; other names are renamed on the wire and mapped back (`renameAll`). */
  readonly toolNames: NameRule
  /** Which local `$ref`s go on the wire as references (the rest are inlined, within `byte-budget.ts`). */
  readonly refs: RefRules
  /** An object node needs `properties`, even empty (OpenAI: "object schema missing properties"). */
  readonly objectsNeedProperties: boolean
  /**
   * The largest length or count bound (`minLength`, `maxItems`, …) the route's grammar compiler takes; a larger one
   * is spilled and enforced locally. `undefined`: any.
   */
  readonly repetitionLimit: number | undefined
  /** `minLength`/`maxLength` may stand beside a `pattern` or `format` (vLLM's xgrammar refuses the pair). */
  readonly lengthBesidePattern: boolean
  /** `enum` may list the empty string (Gemini: "enum[3]: cannot be empty"). */
  readonly emptyEnumStrings: boolean
  /** `format: "enum"` is only taken beside an `enum` (Gemini's OpenAPI format for enumerated strings). */
  readonly enumFormatNeedsEnum: boolean
}

/**
 * A `$ref` to an entry of a definition map (`#/$defs/Name`, `#/definitions/Name`) is kept on the wire where the route
 * takes it, and the entry is projected once, into the wire's own map: the wire costs what the declared schema does.
 * Any other `$ref` (a pointer elsewhere, an anchor, `#`) is inlined, as is every `$ref` on a route that takes none.
 */
export interface RefRules {
  /** The definition maps a kept `$ref` may point into; empty: every `$ref` is inlined. */
  readonly maps: ReadonlySet<'$defs' | 'definitions'>
  /** Keywords a kept `$ref` may have beside it (among those the route keeps); with any other it is inlined. */
  readonly siblings: ReadonlySet<string>
  /** A definition may use itself, directly or through others; where not, the recursive use is sent as JSON text. */
  readonly recursive: boolean
  /**
   * Where the wire's definitions go: the root, or inside the first root property that holds a schema object, for a
   * route that sends only the root's `properties` and `required` (pi-ai's Anthropic route).
   */
  readonly place: 'root' | 'root-property'
}

const BOTH_MAPS: ReadonlySet<'$defs' | 'definitions'> = new Set(['$defs', 'definitions'])

const ANNOTATIONS = ['description', 'title', 'default', 'examples']
const NUMBER_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
const STRING_BOUNDS = ['minLength', 'maxLength', 'pattern', 'format']
const ARRAY_BOUNDS = ['minItems', 'maxItems', 'uniqueItems']
const DRAFT_07_VALIDATION = [
  ...ANNOTATIONS,
  ...NUMBER_BOUNDS,
  ...STRING_BOUNDS,
  ...ARRAY_BOUNDS,
  'enum',
  'const',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependencies',
  'contains',
  'additionalItems',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'contentMediaType',
  'contentEncoding',
  'readOnly',
  'writeOnly',
  'deprecated',
]

function keeps(...groups: readonly (readonly string[])[]): ReadonlySet<string> {
  return new Set(groups.flat())
}

const OPENAI_STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])

// openai-node `FunctionDefinition.name`: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
// length of 64." Anthropic's refusals quote the same pattern (and `{1,128}` later: 64 is the bound both take).
const FUNCTION_NAMES = nameRule('^[a-zA-Z0-9_-]{1,64}$', 'a-zA-Z0-9_\\-', 'a-zA-Z0-9_\\-', 64)
// @google/genai `FunctionDeclaration.name`: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or
// contain underscores, dots, colons and dashes, with a maximum length of 128"; 64 where other sources say so (D4).
const GEMINI_NAMES = nameRule('^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$', 'a-zA-Z_', 'a-zA-Z0-9_.:\\-', 64)
// Anthropic: "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'" (PrefectHQ/fastmcp#839).
const ANTHROPIC_KEYS = nameRule('^[a-zA-Z0-9_.-]{1,64}$', 'a-zA-Z0-9_.\\-', 'a-zA-Z0-9_.\\-', 64)
// @google/genai `FunctionDeclaration.parameters`: "Parameter names must start with a letter or an underscore and must
// only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64."
const GEMINI_KEYS = nameRule('^[a-zA-Z_][a-zA-Z0-9_]{0,63}$', 'a-zA-Z_', 'a-zA-Z0-9_', 64)
// Moonshot refuses a tool name starting with a digit (MoonshotAI/kimi-cli#2531).
const MOONSHOT_NAMES = nameRule('^[a-zA-Z_-][a-zA-Z0-9_-]{0,63}$', 'a-zA-Z_\\-', 'a-zA-Z0-9_\\-', 64)

// OpenAI's Responses API: "Invalid JSON schema: regex lookaround is not supported" (anomalyco/opencode#32073); `\p{…}`:
// BerriAI/litellm PR #40485 ("OpenAI compiles tool `pattern`s with Python `re`").
const OPENAI_REFUSED_PATTERNS: ReadonlySet<RegexFeature> = new Set(['lookaround', 'unicode-property'])
// DeepSeek refuses `^[^/\\\0]+$` (zed-industries/zed#64386), a pattern ECMA-262 compiles: its engine is not ECMA-262,
// so every construct outside the subset the common engines share is kept off its wire.
const DEEPSEEK_REFUSED_PATTERNS: ReadonlySet<RegexFeature> = new Set([
  'lookaround',
  'backreference',
  'unicode-property',
  'octal-escape',
  'named-group',
])

const BASE: Omit<ProfileRules, 'id'> = {
  keeps: keeps(DRAFT_07_VALIDATION),
  anyJson: 'json-text',
  typeLists: 'keep',
  unions: 'any-of-and-one-of',
  typeBesideUnion: true,
  strictObjects: false,
  nullableOptionals: false,
  typedEverywhere: false,
  enumStringsOnly: false,
  constAsEnum: false,
  tuples: 'items-array',
  booleanSchemas: true,
  formats: undefined,
  nullType: 'type',
  schemaValuedAdditional: true,
  requiredDeclaredOnly: false,
  arraysNeedItems: false,
  refusedPatterns: new Set(),
  propertyKeys: undefined,
  toolNames: FUNCTION_NAMES,
  // No source reports these routes refusing a local `$ref` into `$defs`/`definitions` (PROFILES.md, References).
  refs: { maps: BOTH_MAPS, siblings: new Set(ANNOTATIONS), recursive: true, place: 'root' },
  objectsNeedProperties: false,
  repetitionLimit: undefined,
  lengthBesidePattern: true,
  emptyEnumStrings: true,
  enumFormatNeedsEnum: false,
}

// Every `$ref` is inlined (within the byte budget): for engines that do not resolve references.
const NO_REFS: RefRules = { maps: new Set(), siblings: new Set(), recursive: false, place: 'root' }

// vLLM `v1/structured_output/backend_xgrammar.py` `STRING_SUPPORTED_FORMATS` (after xgrammar's
// `json_schema_converter.cc`): a `format` outside it makes xgrammar refuse the schema.
const XGRAMMAR_FORMATS = new Set([
  'email',
  'date',
  'time',
  'date-time',
  'duration',
  'ipv4',
  'ipv6',
  'hostname',
  'uuid',
  'uri',
  'uri-reference',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
])
// vLLM `has_xgrammar_unsupported_json_features`: "The provided JSON schema contains features not supported by
// xgrammar." (vllm-project/vllm#16321, #16880) for these keywords.
const XGRAMMAR_REFUSED = new Set([
  'multipleOf',
  'uniqueItems',
  'contains',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
])
// The tool-name rule every route takes: OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`, Gemini's leading letter or
// underscore, Moonshot's "no leading digit".
const SHARED_NAMES = nameRule('^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$', 'a-zA-Z_', 'a-zA-Z0-9_\\-', 64)

export const PROFILES: ReadonlyMap<ProfileId, ProfileRules> = new Map<ProfileId, ProfileRules>([
  // DeepSeek chat completions (non-strict): OpenAI-compatible validation; untyped slots make the model send
  // nested objects as JSON strings (#1122), so any-JSON slots are explicit JSON text.
  ['deepseek', { ...BASE, id: 'deepseek', refusedPatterns: DEEPSEEK_REFUSED_PATTERNS }],
  // OpenAI chat completions, non-strict: the schema is validated; sub-schemas need a `type` in places.
  // "array schema missing items" is reported non-strict too (sigoden/aichat#1049, mark3labs/mcphost#35).
  // "object schema missing properties" (openai/openai-agents-python#449); Codex CLI adds `properties: {}` because
  // "OpenAI models mandate the \"properties\" field in the schema" (openai/codex `mcp_tool.rs`).
  [
    'openai',
    {
      ...BASE,
      id: 'openai',
      arraysNeedItems: true,
      objectsNeedProperties: true,
      refusedPatterns: OPENAI_REFUSED_PATTERNS,
    },
  ],
  // OpenAI structured outputs (`strict: true`).
  [
    'openai-strict',
    {
      ...BASE,
      id: 'openai-strict',
      // "Invalid schema for function 'GetLogs': In context=('properties', 'name'), 'default' is not permitted."
      // (dotnet/extensions#6196; 567-labs/instructor#1074; livekit/agents#1987): `default` is spilled.
      keeps: keeps(['description', 'title'], NUMBER_BOUNDS, STRING_BOUNDS, [
        'minItems',
        'maxItems',
        'enum',
        'const',
      ]),
      unions: 'any-of',
      strictObjects: true,
      nullableOptionals: true,
      typedEverywhere: true,
      tuples: 'none',
      booleanSchemas: false,
      formats: OPENAI_STRICT_FORMATS,
      schemaValuedAdditional: false,
      requiredDeclaredOnly: true,
      arraysNeedItems: true,
      refusedPatterns: OPENAI_REFUSED_PATTERNS,
      // openai-node 7.59.0 `transform.ts`: "Schema $ref at `…` has non-annotation siblings that Draft 7 ignores and
      // cannot be represented in strict Structured Outputs" (a ref with only annotations beside it is kept).
      refs: { ...BASE.refs, siblings: new Set(['description', 'title']) },
    },
  ],
  // Codex (Responses API, strict: null): validated like OpenAI; declared optional fields get filled (#1149), so
  // they also admit null on the wire and null reads back as "not provided".
  [
    'codex',
    {
      ...BASE,
      id: 'codex',
      nullableOptionals: true,
      arraysNeedItems: true,
      objectsNeedProperties: true,
      refusedPatterns: OPENAI_REFUSED_PATTERNS,
    },
  ],
  // Anthropic Messages `input_schema`: JSON Schema 2020-12; a draft-07 `$schema` or tuple `items` is rejected.
  [
    'anthropic',
    {
      ...BASE,
      id: 'anthropic',
      keeps: keeps(DRAFT_07_VALIDATION.filter((k) => k !== 'dependencies' && k !== 'additionalItems')),
      tuples: 'prefix-items',
      propertyKeys: ANTHROPIC_KEYS,
      // pi-ai 0.82.1 `anthropic-messages.js` `convertTools` sends only the root's `properties` and `required`, so a
      // root `$defs` would not arrive: the wire's definitions go inside the first root property.
      refs: { ...BASE.refs, place: 'root-property' },
    },
  ],
  // Gemini function declarations (`parameters`, the OpenAPI 3.0 subset).
  [
    'gemini',
    {
      ...BASE,
      id: 'gemini',
      keeps: keeps(
        ['description', 'title'],
        ['minimum', 'maximum'],
        ['minLength', 'maxLength', 'pattern', 'format'],
        ['minItems', 'maxItems', 'enum', 'minProperties', 'maxProperties'],
      ),
      typeLists: 'split-any-of',
      unions: 'any-of',
      typeBesideUnion: false,
      typedEverywhere: true,
      enumStringsOnly: true,
      constAsEnum: true,
      tuples: 'none',
      booleanSchemas: false,
      formats: new Set(['date-time', 'enum', 'float', 'double', 'int32', 'int64']),
      nullType: 'nullable',
      schemaValuedAdditional: false,
      // "…parameters.required[0]: property is not defined" (iBUHub/AIStudioToAPI#154, cline#11162).
      requiredDeclaredOnly: true,
      propertyKeys: GEMINI_KEYS,
      toolNames: GEMINI_NAMES,
      // "…properties[action].enum[3]: cannot be empty" (sbroenne/mcp-server-excel#607; Smana/runlore PR #40).
      emptyEnumStrings: false,
      // OpenAPI's `format: "enum"` names an enumerated string; without an `enum` beside it there is nothing to name.
      enumFormatNeedsEnum: true,
      // pi-ai sends `parametersJsonSchema`, which takes `$ref`/`$defs` but refuses a `$ref` beside anything but
      // `description`/`default` (anomalyco/opencode#12295) and cyclic schemas (gemini-cli#5030).
      refs: {
        maps: BOTH_MAPS,
        siblings: new Set(['description', 'default']),
        recursive: false,
        place: 'root',
      },
    },
  ],
  // Moonshot (Kimi) chat completions, non-strict (pi-ai detects `supportsStrictMode: false`): its "Moonshot flavored
  // json schema" wants a type on every node ("<At path 'properties.truncateMode': type is not defined>"), no type
  // beside anyOf ("type should be defined in anyOf items instead of the parent schema", MoonshotAI/kimi-cli#1595,
  // #2531) and only declared names in required (kimi-cli#2457).
  [
    'moonshot',
    {
      ...BASE,
      id: 'moonshot',
      // Its refusals name only anyOf; oneOf goes as anyOf and is enforced locally.
      unions: 'any-of',
      typeBesideUnion: false,
      typedEverywhere: true,
      requiredDeclaredOnly: true,
      toolNames: MOONSHOT_NAMES,
      // "references must start with #/$defs/" (OnesoftQwQ/opencode-go-copilot#67); "conflicting keywords found after
      // $ref expansion: description" (kimi-cli#2061): only `#/$defs/` refs with nothing beside them, and, since it
      // expands references itself, none that recurse.
      refs: { maps: new Set(['$defs']), siblings: new Set(), recursive: false, place: 'root' },
    },
  ],
  // Ollama `/v1/chat/completions` (and `/api/chat`): `api/types.go` reads a tool's parameters into Go structs,
  // `ToolFunctionParameters` {type, $defs, items, required, properties} and `ToolProperty` {anyOf, type, items,
  // description, enum, properties, required}: every other keyword is silently dropped before the chat template sees
  // it, so it is spilled into the description; a boolean subschema cannot be read into `ToolProperty` (the request
  // fails), and a `$ref` is dropped (inlined here).
  [
    'ollama',
    {
      ...BASE,
      id: 'ollama',
      keeps: keeps(['description', 'enum']),
      unions: 'any-of',
      constAsEnum: true,
      tuples: 'none',
      booleanSchemas: false,
      formats: new Set(),
      schemaValuedAdditional: false,
      // A root without `properties` re-encodes as `"properties": null` (`ToolPropertiesMap` has no omitempty).
      objectsNeedProperties: true,
      refs: NO_REFS,
    },
  ],
  // llama.cpp's `llama-server` (and LM Studio, whose llama.cpp engine answers with the same errors) compiles every
  // tool's parameters into one GBNF grammar (`common/json-schema-to-grammar.cpp`): "Pattern must start with '^' and
  // end with '$'", and anchored patterns with `\S` still fail "failed to parse grammar", so no `pattern` goes out; a
  // bound compiles to a repetition, refused at 2000 ("number of repetitions exceeds sane defaults"); "Error resolving
  // ref #/definitions/__schema0" on LM Studio for a recursive reference (inkeep/open-knowledge), so they are inlined.
  [
    'llama-cpp',
    {
      ...BASE,
      id: 'llama-cpp',
      keeps: keeps(DRAFT_07_VALIDATION.filter((k) => k !== 'pattern' && k !== 'patternProperties')),
      repetitionLimit: 1999,
      refs: NO_REFS,
    },
  ],
  // vLLM and SGLang (xgrammar, their default structured-output backend, when a tool call is constrained): keywords
  // `has_xgrammar_unsupported_json_features` refuses are spilled, formats outside xgrammar's list too.
  [
    'vllm',
    {
      ...BASE,
      id: 'vllm',
      keeps: keeps(DRAFT_07_VALIDATION.filter((k) => !XGRAMMAR_REFUSED.has(k))),
      formats: XGRAMMAR_FORMATS,
      // "A string mixing a generative constraint (pattern or format) with explicit length bounds": the lengths go.
      lengthBesidePattern: false,
    },
  ],
  // A route no rule places: what every non-strict model route above takes (see PROFILES.md "conservative"), so its
  // wire is accepted wherever another profile's would be. Descriptions and string enums only; typed slots, `anyOf`
  // only, no type beside a union, no tuples, no boolean schemas, every `$ref` inlined, Gemini's key pattern.
  [
    'conservative',
    {
      ...BASE,
      id: 'conservative',
      keeps: keeps(['description', 'enum']),
      unions: 'any-of',
      typeLists: 'split-any-of',
      typeBesideUnion: false,
      typedEverywhere: true,
      enumStringsOnly: true,
      constAsEnum: true,
      tuples: 'none',
      booleanSchemas: false,
      formats: new Set(),
      schemaValuedAdditional: false,
      requiredDeclaredOnly: true,
      arraysNeedItems: true,
      objectsNeedProperties: true,
      emptyEnumStrings: false,
      propertyKeys: GEMINI_KEYS,
      toolNames: SHARED_NAMES,
      refs: NO_REFS,
    },
  ],
  // Exactly what DSH's `assertSupportedJsonSchema` (packages/core/tools/src/json-schema.ts) accepts.
  [
    'dsh-subset',
    {
      ...BASE,
      id: 'dsh-subset',
      keeps: keeps(ANNOTATIONS, ['enum', 'const', 'additionalProperties']),
      anyJson: 'untyped',
      typeLists: 'split-one-of',
      unions: 'one-of',
      typeBesideUnion: false,
      tuples: 'none',
      booleanSchemas: false,
      formats: new Set(),
      schemaValuedAdditional: false,
      requiredDeclaredOnly: true,
      // DSH's subset has no `$ref`: every reference is inlined.
      refs: NO_REFS,
    },
  ],
])

export function profileRules(id: ProfileId): ProfileRules {
  const rules = PROFILES.get(id)
  if (rules === undefined)
    throw new TypeError(
      `unknown profile ${JSON.stringify(id)}: use one of ${[...PROFILES.keys()].join(', ')}`,
    )
  return rules
}
