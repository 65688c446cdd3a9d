export {
  type IntakeEvent,
  type IntakeInstallation,
  installTolerantIntake,
  installTolerantIntakeOn,
  type TolerantIntakeOptions,
  withIntakeServer,
} from './install.ts'
export { intakeToolList } from './intake.ts'
/**
 * The package as a DSH profile row (`name: '@dsh-harden/mcp-client'`): DSH's loader takes a module's default export
 * (`Loader.unwrapExports`), and `TolerantIntake` is the plugin that covers every mcp-client row of the profile.
 */
export {
  describeIntake,
  TolerantIntake,
  TolerantIntake as default,
  type TolerantIntakeConfig,
  TolerantMcpClient,
} from './plugin.ts'
export { type SdkIssue, sdkAcceptsSchema, sdkOutputCompileProblem, sdkToolIssues } from './schema-intake.ts'
export { loadMcpSdk, type McpSdk } from './sdk-instance.ts'
export type {
  IntakeOptions,
  IntakePolicy,
  IntakeResult,
  ListedTool,
  ToolDiagnostic,
  ToolProjections,
  ToolRepair,
} from './types.ts'
