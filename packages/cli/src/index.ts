export { type Command, EXIT_UNUSABLE, type Io } from './command.ts'
export { lintCommand } from './lint/command.ts'
export { type LoadedPlugin, loadPlugin, PluginLoadError } from './lint/load.ts'
export {
  exitCodeOf,
  formatJson,
  formatText,
  type LintReport,
  type ToolReport,
  type ToolViolation,
} from './lint/report.ts'
export { type MountOptions, mountAndLint } from './lint/runtime.ts'
export { createStandIn } from './lint/stand-in.ts'
export { COMMANDS, main } from './main.ts'
export { sanitizeCommand } from './sanitize/command.ts'
export { typesCommand } from './types/command.ts'
