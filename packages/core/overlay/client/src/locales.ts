/**
 * The `dshHarden.toolContracts` namespace: Simplified Chinese is the key set, English matches it key for key. Every
 * text a user reads in the panel is here, reasons and fixes included (`rule-texts.ts`), so all of it follows the
 * language DSH shows; the host sends only names, pointers and rule ids. Plain text throughout: no markdown.
 */
import type { SchemaRule, ValidatorConstruct, ValidatorFallback } from '../../src/web/wire.ts'
import {
  CONSTRUCTS_EN,
  CONSTRUCTS_ZH,
  FALLBACKS_EN,
  FALLBACKS_ZH,
  RULES_EN,
  RULES_ZH,
  type RuleText,
} from './rule-texts.ts'

export const NS = 'dshHarden.toolContracts'

const LABELS_ZH = {
  title: '工具契约',
  tab: '工具契约 (dsh-harden)',
  'badge.withheld.one': '{count} 个工具被拦下',
  'badge.withheld.other': '{count} 个工具被拦下',
  'badge.repaired.one': '{count} 个工具已修复',
  'badge.repaired.other': '{count} 个工具已修复',
  'badge.both': '{withheld} 个工具被拦下，{repaired} 个已修复',
  'verdict.withheld': '已拦下',
  'verdict.repaired': '已修复',
  'verdict.fallback-validator': '由后备校验器检查',
  'verdict.accepted': '已接受',
  'explain.withheld': '未注册：模型看不到这个工具，其他工具照常工作。',
  'explain.repaired': '已注册，参数 schema 做了以下修复；你无需操作，模型拿到的是修复后的工具：',
  'explain.fallback': 'ajv 无法编译它的参数 schema（{construct}），参数改由{fallback}检查。',
  source: '来自插件 {source}',
  'source.package': '来自 {package}（插件 {source}）',
  'source.unknown': '来源未知',
  early: '在 dsh-harden 启动前注册',
  root: '（根）',
  fix: '修复：',
  'now.title': '你现在可以：',
  'now.repair':
    '在该 profile 的 cordis.patch.yml 中为 dsh-harden 行设置 mode: repair，然后重启 dsh web：这里的每个问题都只有一种含义，overlay 会修复这个工具，模型就能拿到它。',
  'now.remove': '移除这个插件：',
  'now.remove.unknown': '从 profile 中移除注册它的插件（设置 → 插件 中列出了它）。',
  'now.report': '或者把问题报告给 {package} 的作者。',
  'now.report.unknown': '或者把问题报告给插件作者。',
  'author.title': '插件作者：',
  'author.lint': '在插件目录中运行以下命令，发布前即可得到同样的结论：',
  'author.lint.none':
    '用 dsh-harden lint 检查它：目前它从 dsh-harden 的代码仓库检出中运行（见仓库 INSTALL.md 的 “The CLI” 一节），尚未发布到 npm。',
  'accepted.fold': '已接受的工具（{count}）',
  'more.findings': '另有 {count} 条未显示',
  'more.rows': '另有 {count} 个工具未显示（响应大小上限）',
  loading: '正在读取工具契约…',
  error: '无法读取工具契约：{reason}',
  'error.forbidden':
    'DSH 的 Web 服务器拒绝了请求（HTTP 403）：它的 API 不信任这个地址。请用 dsh web 打印的地址打开 Web UI，或用 --trusted-host 加上这个主机名。',
  'error.http': 'HTTP {status}',
  'error.network': '连接失败（{detail}）',
  'error.timeout': '{seconds} 秒内没有应答',
  'error.malformed': '应答格式不对（{detail}）',
  empty: 'dsh-harden 尚未判定任何工具。',
  close: '关闭',
} as const

type LabelKey = keyof typeof LABELS_ZH

const LABELS_EN: Record<LabelKey, string> = {
  title: 'Tool contracts',
  tab: 'Tool contracts (dsh-harden)',
  'badge.withheld.one': '{count} tool withheld',
  'badge.withheld.other': '{count} tools withheld',
  'badge.repaired.one': '{count} tool repaired',
  'badge.repaired.other': '{count} tools repaired',
  'badge.both': '{withheld} withheld, {repaired} repaired',
  'verdict.withheld': 'Withheld',
  'verdict.repaired': 'Repaired',
  'verdict.fallback-validator': 'Checked by a fallback validator',
  'verdict.accepted': 'Accepted',
  'explain.withheld': 'Not registered: the model never sees this tool; the other tools work.',
  'explain.repaired':
    'Registered, with these changes to its parameters; nothing to do for you, the model gets the repaired tool:',
  'explain.fallback':
    'ajv cannot compile its parameters ({construct}); its arguments are checked by {fallback} instead.',
  source: 'from plugin {source}',
  'source.package': 'from {package} (plugin {source})',
  'source.unknown': 'source unknown',
  early: 'registered before dsh-harden started',
  root: '(root)',
  fix: 'Fix:',
  'now.title': 'What you can do now:',
  'now.repair':
    "Set mode: repair on the dsh-harden row in this profile's cordis.patch.yml, then restart dsh web: each mistake here has exactly one meaning, so the overlay repairs the tool and the model gets it.",
  'now.remove': 'Remove the plugin:',
  'now.remove.unknown':
    'Remove the plugin that registered it from the profile (Settings → Plugins lists it).',
  'now.report': 'Or report it to the author of {package}.',
  'now.report.unknown': "Or report it to the plugin's author.",
  'author.title': "For the plugin's author:",
  'author.lint': "Get the same verdicts before publishing: run this in the plugin's folder:",
  'author.lint.none':
    'Check it with dsh-harden lint, which runs from a checkout of the dsh-harden repository today (its INSTALL.md, "The CLI"); it is not on npm yet.',
  'accepted.fold': 'Accepted tools ({count})',
  'more.findings': '{count} more not shown',
  'more.rows': '{count} more tools not shown (response size limit)',
  loading: 'Reading the tool contracts…',
  error: 'Cannot read the tool contracts: {reason}',
  'error.forbidden':
    "DSH's web server refused the request (HTTP 403): its API does not trust this address. Open the Web UI at the address dsh web printed, or add this host name with --trusted-host.",
  'error.http': 'HTTP {status}',
  'error.network': 'the connection failed ({detail})',
  'error.timeout': 'no answer within {seconds} s',
  'error.malformed': 'the answer is not in the expected form ({detail})',
  empty: 'dsh-harden has not judged any tool yet.',
  close: 'Close',
}

type Keyed<P extends string, K extends string> = `${P}.${K}`

export type ContractsKey =
  | LabelKey
  | Keyed<'rule', SchemaRule>
  | Keyed<'rulefix', SchemaRule>
  | Keyed<'construct', ValidatorConstruct>
  | Keyed<'fallback', ValidatorFallback>

function keyed<P extends string, K extends string>(
  prefix: P,
  texts: Readonly<Record<K, string>>,
): Record<Keyed<P, K>, string> {
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [`${prefix}.${key}`, text])) as Record<
    Keyed<P, K>,
    string
  >
}

function ruleTexts(rules: Readonly<Record<SchemaRule, RuleText>>, part: keyof RuleText) {
  return Object.fromEntries(Object.entries(rules).map(([rule, text]) => [rule, text[part]])) as Record<
    SchemaRule,
    string
  >
}

function dictionary(
  labels: Record<LabelKey, string>,
  rules: Readonly<Record<SchemaRule, RuleText>>,
  constructs: Readonly<Record<ValidatorConstruct, string>>,
  fallbacks: Readonly<Record<ValidatorFallback, string>>,
): Readonly<Record<ContractsKey, string>> {
  return {
    ...labels,
    ...keyed('rule', ruleTexts(rules, 'message')),
    ...keyed('rulefix', ruleTexts(rules, 'fix')),
    ...keyed('construct', constructs),
    ...keyed('fallback', fallbacks),
  }
}

export const zh = dictionary(LABELS_ZH, RULES_ZH, CONSTRUCTS_ZH, FALLBACKS_ZH)
export const en = dictionary(LABELS_EN, RULES_EN, CONSTRUCTS_EN, FALLBACKS_EN)
