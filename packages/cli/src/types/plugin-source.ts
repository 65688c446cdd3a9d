import { loadPlugin } from '../lint/load.ts'
import { mountAndLint } from '../lint/runtime.ts'
import type { TypedTool } from './emit.ts'

export interface ToolList {
  /** What the header comment names: the plugin path or the MCP server. */
  readonly label: string
  readonly tools: readonly TypedTool[]
  /** Things to tell the user on stderr (stand-ins, plugin findings, notes). */
  readonly notes: readonly string[]
}

/**
 * Mounts the plugin exactly as `dsh-harden lint` does (collect mode, so a bad tool does not end `apply`) and reads
 * each registration's declared `parameters`. Throws `PluginLoadError` when nothing could be registered.
 */
export async function pluginTools(target: string, cwd: string, timeoutMs: number): Promise<ToolList> {
  const loaded = await loadPlugin(target, cwd)
  const report = await mountAndLint(loaded, { display: target, timeoutMs })
  const tools = report.tools.map((tool): TypedTool => {
    const contract = tool.errors.filter((error) => error.rule !== 'dsh-register')
    const rejections = tool.errors.filter((error) => error.rule === 'dsh-register')
    return {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      violations: contract,
      remarks: rejections.map(
        (error) => `dsh-harden: DSH's register rejected this definition (dsh-register): ${error.message}`,
      ),
    }
  })
  const notes = [
    ...(report.standIns.length > 0 ? [`stood in for the services ${report.standIns.join(', ')}`] : []),
    ...report.findings.map((finding) => `plugin: ${finding}`),
    ...report.notes,
  ]
  const label = report.plugin.name === null ? target : `${report.plugin.name} (${target})`
  return { label, tools, notes }
}
