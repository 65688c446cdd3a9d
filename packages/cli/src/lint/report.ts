/** One violation as `--json` prints it: the fields of `SchemaViolation` from `@dsh-harden/tools`. */
export interface ToolViolation {
  readonly pointer: string
  readonly rule: string
  readonly message: string
  readonly hint: string
}

/** The verdict for one `ctx.tools.register()` call, in registration order. */
export interface ToolReport {
  readonly name: string
  /** The registering plugin (its cordis fiber name), or `null` when it has none. */
  readonly source: string | null
  readonly ok: boolean
  readonly errors: readonly ToolViolation[]
  /** The definition's description, for `dsh-harden types`; `lint` does not print it. */
  readonly description?: string | undefined
  /** The `parameters` DSH received, set only when the root contract passed; for `dsh-harden types`. */
  readonly parameters?: unknown
}

export interface LintReport {
  readonly plugin: { readonly path: string; readonly name: string | null }
  readonly tools: readonly ToolReport[]
  /** Required services lint provided as inert stand-ins so `apply` could run. */
  readonly standIns: readonly string[]
  /** Things about the plugin itself: `apply` threw, loading timed out, an uncaught error, an odd `inject`. */
  readonly findings: readonly string[]
  readonly notes: readonly string[]
}

/** 0 every tool passed, 1 a tool failed or the plugin itself misbehaved after registering tools. */
export function exitCodeOf(report: LintReport): 0 | 1 {
  return report.findings.length > 0 || report.tools.some((tool) => !tool.ok) ? 1 : 0
}

export function formatText(report: LintReport): string {
  const lines: string[] = []
  for (const tool of report.tools) {
    lines.push(`${tool.ok ? 'ok  ' : 'FAIL'} ${tool.name}`)
    for (const error of tool.errors) {
      lines.push(`  ${error.pointer === '' ? '(root)' : error.pointer} [${error.rule}] ${error.message}`)
      lines.push(`    fix: ${error.hint}`)
    }
  }
  if (report.standIns.length > 0) {
    lines.push(
      `stand-ins: ${report.standIns.join(', ')} (inert; lint does not provide these services, so calls into them did nothing)`,
    )
  }
  for (const finding of report.findings) lines.push(`plugin: ${finding}`)
  for (const note of report.notes) lines.push(`note: ${note}`)
  lines.push(summaryOf(report))
  return `${lines.join('\n')}\n`
}

function summaryOf(report: LintReport): string {
  const failed = report.tools.filter((tool) => !tool.ok).length
  const total = report.tools.length
  const plugin =
    report.plugin.name === null ? report.plugin.path : `${report.plugin.name} (${report.plugin.path})`
  const tools = total === 1 ? '1 tool' : `${total} tools`
  const verdict = failed === 0 ? 'all ok' : `${failed} failing`
  const findings =
    report.findings.length === 0
      ? ''
      : `, ${report.findings.length} plugin finding${report.findings.length === 1 ? '' : 's'}`
  return `${plugin}: ${tools}, ${verdict}${findings}`
}

export function formatJson(report: LintReport): string {
  const body = {
    plugin: report.plugin,
    tools: report.tools.map((tool) => ({
      name: tool.name,
      source: tool.source,
      ok: tool.ok,
      errors: tool.errors.map(({ pointer, rule, message, hint }) => ({ pointer, rule, message, hint })),
    })),
    standIns: report.standIns,
    findings: report.findings,
    notes: report.notes,
  }
  return `${JSON.stringify(body, null, 2)}\n`
}
