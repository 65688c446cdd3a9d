/**
 * What each rule of `@dsh-harden/tools` (`SchemaViolation.rule`) means, and its fix, in both of DSH's languages. The
 * host sends a finding as a rule and a JSON pointer only, so these texts never quote the schema: where a rule needs
 * to say which keyword or name, the pointer shown beside it says so. Plain text: the panel renders no markup.
 */
import type { SchemaRule, ValidatorConstruct, ValidatorFallback } from '../../src/web/wire.ts'

export interface RuleText {
  readonly message: string
  readonly fix: string
}

type RuleTexts = Readonly<Record<SchemaRule, RuleText>>

export const RULES_EN: RuleTexts = {
  'parameters-missing': {
    message: 'The tool declares no parameters.',
    fix: 'Declare parameters; a tool with no arguments declares { type: "object", properties: {} }.',
  },
  'parameters-json-text': {
    message: 'The parameters are JSON text, not the object itself.',
    fix: 'Pass the object: parse the text once when the plugin loads, or write an object literal.',
  },
  'root-not-object': {
    message: 'The parameters are not a JSON Schema object.',
    fix: 'Declare { type: "object", properties: { … } }.',
  },
  'root-empty': {
    message:
      'The parameters are the empty schema {}, with no type "object"; DeepSeek and OpenAI reject every request that carries it.',
    fix: 'For a tool with no arguments declare { type: "object", properties: {} }.',
  },
  'bare-property-table': {
    message:
      'This is a bare table of property schemas, not a JSON Schema: with no type "object" root, the model API rejects every request of the session.',
    fix: 'Wrap it: { type: "object", properties: <this table> }.',
  },
  'root-type-missing': {
    message: 'The root declares properties but not type "object".',
    fix: 'Add type: "object" at the root.',
  },
  'root-unrecognized': {
    message: 'The root has no type: it is neither an object schema nor a table of property schemas.',
    fix: 'Declare { type: "object", properties: { … } }.',
  },
  'root-type-array': {
    message: 'The root type is a list of types; tool arguments are always one object.',
    fix: 'Use type: "object" and express optional or nullable fields on the properties.',
  },
  'root-type-not-object': {
    message: 'The root type is not "object"; tool arguments must be an object.',
    fix: 'Wrap the value in a property: { type: "object", properties: { value: <this schema> }, required: ["value"] }.',
  },
  'root-union': {
    message:
      'The root is a union (anyOf, oneOf or allOf); model APIs, DeepSeek included, require one object root.',
    fix: 'Move the alternatives under a property, or merge them into one object whose branch-specific fields are optional.',
  },
  'root-ref': {
    message: 'The root is a $ref; model APIs need the object schema itself at the root.',
    fix: 'Inline the referenced object schema at the root (mode: repair does this for a local object schema).',
  },
  'root-keyword': {
    message: 'This keyword at the root constrains the whole arguments object, which model routes refuse.',
    fix: 'Remove the keyword from the root and constrain individual properties instead.',
  },
  'properties-not-map': {
    message: 'properties is not a map of property schemas.',
    fix: 'Make properties an object whose values are schemas ({} accepts any value).',
  },
  'property-not-schema': {
    message: 'This property is not a schema object.',
    fix: 'Write an object schema for it ({} accepts any value).',
  },
  'required-not-array': {
    message: 'required is not an array of property names.',
    fix: 'Leave required out, or list the required property names as strings.',
  },
  'required-in-property': {
    message:
      'This property says required: true inside itself; JSON Schema lists required names on the parent object.',
    fix: "Remove it from the property and add the property's name to the parent's required array (mode: repair does this).",
  },
  'required-duplicate': {
    message: 'required lists the same name twice.',
    fix: 'List each required name once.',
  },
  'required-undeclared': {
    message: 'required names a property that properties does not declare.',
    fix: 'Declare that property under properties, or remove the name from required.',
  },
  'not-lossless-json': {
    message:
      'The schema holds a value JSON cannot carry (a function, a Date, undefined, a non-finite number).',
    fix: 'Declare the schema as plain JSON data.',
  },
  cycle: {
    message: 'The schema contains itself (an object cycle), so it cannot be sent as JSON.',
    fix: 'Describe a recursive shape with a $defs entry and a $ref to it.',
  },
  'too-deep': {
    message: 'The schema nests deeper than the overlay accepts.',
    fix: 'Flatten the schema, or share repeated shapes through $defs and $ref.',
  },
  'too-large': {
    message: 'The schema is larger than the overlay accepts.',
    fix: 'Shrink the schema: share repeated parts through $defs and $ref, or split the tool.',
  },
  unreadable: {
    message: 'The schema could not be read (a getter threw, or a proxy refused).',
    fix: 'Declare the schema as plain data.',
  },
  'keyword-type': {
    message: 'This keyword has a value of the wrong kind.',
    fix: 'Give it the kind of value JSON Schema defines for it (a schema, a string, a list, a number…).',
  },
  'type-unknown': {
    message: 'type names a type JSON Schema does not define.',
    fix: 'Use string, number, integer, boolean, object, array or null.',
  },
  'enum-empty': {
    message: 'enum lists no value, so no argument can ever match and the tool can never be called.',
    fix: 'List the allowed values, or remove enum.',
  },
  'enum-duplicate': {
    message: 'enum lists the same value twice.',
    fix: 'List each value once.',
  },
  'pattern-invalid': {
    message: 'pattern is not a valid regular expression.',
    fix: 'Write a pattern that compiles as a JavaScript regular expression with the u flag.',
  },
  'ref-unresolved': {
    message: 'This $ref points to nothing in this schema.',
    fix: 'Point it at an existing $defs (or definitions) entry.',
  },
  'ref-remote': {
    message: 'This $ref points outside this schema; model APIs cannot fetch it.',
    fix: 'Copy the referenced schema into $defs and point the $ref at it.',
  },
  'schema-dialect-unknown': {
    message: '$schema names a JSON Schema dialect the overlay does not know.',
    fix: 'Use draft-07 or 2020-12, or remove $schema.',
  },
  'profile-keyword': {
    message: 'The model route does not accept this keyword here.',
    fix: 'Let the overlay project the schema for the route, or remove the keyword.',
  },
  'profile-shape': {
    message: 'The model route does not accept this shape here.',
    fix: 'Let the overlay project the schema for the route, or simplify this part.',
  },
  'projection-failed': {
    message: 'The overlay could not project this schema for the model route.',
    fix: 'Simplify this schema, or report it to dsh-harden.',
  },
  'wire-too-large': {
    message:
      'This model route needs the schema’s references written out, and written out it would be too large to send.',
    fix: 'Define each shared schema once and refer to it, or use a model route that accepts references.',
  },
}

export const RULES_ZH: RuleTexts = {
  'parameters-missing': {
    message: '这个工具没有声明 parameters。',
    fix: '声明 parameters；没有参数的工具声明 { type: "object", properties: {} }。',
  },
  'parameters-json-text': {
    message: 'parameters 是 JSON 文本，而不是对象本身。',
    fix: '传入对象：在插件加载时解析一次文本，或直接写对象字面量。',
  },
  'root-not-object': {
    message: 'parameters 不是 JSON Schema 对象。',
    fix: '声明 { type: "object", properties: { … } }。',
  },
  'root-empty': {
    message: 'parameters 是空 schema {}，没有 type "object"；DeepSeek 和 OpenAI 会拒绝携带它的每个请求。',
    fix: '没有参数的工具声明 { type: "object", properties: {} }。',
  },
  'bare-property-table': {
    message:
      '这是一张裸的属性 schema 表，不是 JSON Schema：根上没有 type "object"，模型 API 会拒绝整个会话的每个请求。',
    fix: '把它包起来：{ type: "object", properties: <这张表> }。',
  },
  'root-type-missing': {
    message: '根声明了 properties，但没有声明 type "object"。',
    fix: '在根上加 type: "object"。',
  },
  'root-unrecognized': {
    message: '根没有 type：它既不是对象 schema，也不是属性 schema 表。',
    fix: '声明 { type: "object", properties: { … } }。',
  },
  'root-type-array': {
    message: '根的 type 是一个类型列表；工具参数总是一个对象。',
    fix: '使用 type: "object"，把可选或可为 null 的字段写在各个属性上。',
  },
  'root-type-not-object': {
    message: '根的 type 不是 "object"；工具参数必须是对象。',
    fix: '把这个值包进一个属性：{ type: "object", properties: { value: <这个 schema> }, required: ["value"] }。',
  },
  'root-union': {
    message: '根是一个联合（anyOf、oneOf 或 allOf）；模型 API（包括 DeepSeek）要求根是一个对象。',
    fix: '把这些分支移到某个属性下，或合并成一个对象，分支特有的字段设为可选。',
  },
  'root-ref': {
    message: '根是一个 $ref；模型 API 要求根上就是对象 schema 本身。',
    fix: '把被引用的对象 schema 内联到根上（mode: repair 会对本地对象 schema 这样做）。',
  },
  'root-keyword': {
    message: '根上的这个关键字约束整个参数对象，模型路由不接受。',
    fix: '从根上删除这个关键字，改为约束各个属性。',
  },
  'properties-not-map': {
    message: 'properties 不是属性 schema 的映射。',
    fix: '让 properties 成为一个值都是 schema 的对象（{} 接受任意值）。',
  },
  'property-not-schema': {
    message: '这个属性不是 schema 对象。',
    fix: '为它写一个对象 schema（{} 接受任意值）。',
  },
  'required-not-array': {
    message: 'required 不是属性名数组。',
    fix: '省略 required，或用字符串列出必填的属性名。',
  },
  'required-in-property': {
    message: '这个属性在自身内部写了 required: true；JSON Schema 在父对象上列出必填名。',
    fix: '从属性里删掉它，把属性名加到父对象的 required 数组里（mode: repair 会这样做）。',
  },
  'required-duplicate': {
    message: 'required 把同一个名字列了两次。',
    fix: '每个必填名只列一次。',
  },
  'required-undeclared': {
    message: 'required 列出了 properties 没有声明的属性。',
    fix: '在 properties 下声明这个属性，或从 required 中删掉这个名字。',
  },
  'not-lossless-json': {
    message: 'schema 含有 JSON 无法表示的值（函数、Date、undefined、非有限数字）。',
    fix: '用纯 JSON 数据声明 schema。',
  },
  cycle: {
    message: 'schema 包含它自己（对象环），无法作为 JSON 发送。',
    fix: '用 $defs 条目和指向它的 $ref 描述递归结构。',
  },
  'too-deep': {
    message: 'schema 的嵌套深度超过了 overlay 的上限。',
    fix: '把 schema 展平，或通过 $defs 和 $ref 共享重复的结构。',
  },
  'too-large': {
    message: 'schema 超过了 overlay 接受的大小上限。',
    fix: '缩小 schema：通过 $defs 和 $ref 共享重复部分，或拆分这个工具。',
  },
  unreadable: {
    message: '无法读取 schema（某个 getter 抛出异常，或 Proxy 拒绝读取）。',
    fix: '用纯数据声明 schema。',
  },
  'keyword-type': {
    message: '这个关键字的值类型不对。',
    fix: '按 JSON Schema 对它的定义给出值（schema、字符串、列表、数字……）。',
  },
  'type-unknown': {
    message: 'type 写了一个 JSON Schema 没有定义的类型。',
    fix: '使用 string、number、integer、boolean、object、array 或 null。',
  },
  'enum-empty': {
    message: 'enum 没有列出任何值，任何参数都无法匹配，这个工具永远无法调用。',
    fix: '列出允许的值，或删除 enum。',
  },
  'enum-duplicate': {
    message: 'enum 把同一个值列了两次。',
    fix: '每个值只列一次。',
  },
  'pattern-invalid': {
    message: 'pattern 不是合法的正则表达式。',
    fix: '写一个能以 u 标志编译为 JavaScript 正则表达式的 pattern。',
  },
  'ref-unresolved': {
    message: '这个 $ref 在本 schema 中找不到目标。',
    fix: '让它指向一个已有的 $defs（或 definitions）条目。',
  },
  'ref-remote': {
    message: '这个 $ref 指向本 schema 之外；模型 API 无法获取它。',
    fix: '把被引用的 schema 复制到 $defs，并让 $ref 指向它。',
  },
  'schema-dialect-unknown': {
    message: '$schema 写了一个 overlay 不认识的 JSON Schema 方言。',
    fix: '使用 draft-07 或 2020-12，或删除 $schema。',
  },
  'profile-keyword': {
    message: '模型路由不接受此处的这个关键字。',
    fix: '让 overlay 为该路由投影 schema，或删除这个关键字。',
  },
  'profile-shape': {
    message: '模型路由不接受此处的这种结构。',
    fix: '让 overlay 为该路由投影 schema，或简化这一部分。',
  },
  'projection-failed': {
    message: 'overlay 无法为模型路由投影这个 schema。',
    fix: '简化这个 schema，或把它报告给 dsh-harden。',
  },
  'wire-too-large': {
    message: '这条模型路由要求把 schema 的引用展开，展开后会大到无法发送。',
    fix: '把共用的 schema 只定义一次再引用它，或改用接受引用的模型路由。',
  },
}

/** What ajv could not compile, by kind (`ContractRow.validator.construct`). */
export const CONSTRUCTS_EN: Readonly<Record<ValidatorConstruct, string>> = {
  'call-stack':
    "ajv's compiler ran out of call stack: the schema nests deeper than it compiles, or a $ref resolves in a loop",
  'duplicate-id': 'a $id or $anchor used twice in one schema',
  'unresolved-ref': 'a $ref that ajv resolves against a nested $id base URI, where it finds nothing',
  pattern:
    'a pattern with lookaround or backreferences, which the linear-time regex engine (RE2) does not run',
  other: 'a construct ajv does not compile',
}

export const CONSTRUCTS_ZH: Readonly<Record<ValidatorConstruct, string>> = {
  'call-stack': 'ajv 编译器的调用栈耗尽：schema 嵌套深度超出它能编译的范围，或某个 $ref 循环解析',
  'duplicate-id': '同一个 schema 中某个 $id 或 $anchor 用了两次',
  'unresolved-ref': '某个 $ref 被 ajv 相对嵌套 $id 的基础 URI 解析，结果找不到目标',
  pattern: '某个 pattern 使用了环视或反向引用，线性时间正则引擎（RE2）不执行它',
  other: 'ajv 无法编译的结构',
}

/** What checks the arguments instead, by kind (`ContractRow.validator.fallback`). */
export const FALLBACKS_EN: Readonly<Record<ValidatorFallback, string>> = {
  dsh: "DSH's own validator",
  'ajv-without-pattern': 'ajv for every other keyword; a call whose value reaches this pattern is refused',
  custom: 'the fallback validator the overlay was configured with',
  none: 'nothing: every call is refused',
}

export const FALLBACKS_ZH: Readonly<Record<ValidatorFallback, string>> = {
  dsh: 'DSH 自己的校验器',
  'ajv-without-pattern': 'ajv 检查其余关键字；值触及这个 pattern 的调用会被拒绝',
  custom: 'overlay 配置的后备校验器',
  none: '没有：每次调用都会被拒绝',
}
