export {
  type IntakeEvent,
  installTolerantIntake,
  installTolerantIntakeOn,
  type TolerantIntakeOptions,
  withIntakeServer,
} from './install.ts'
export { intakeToolList } from './intake.ts'
export { describeIntake, TolerantIntake, type TolerantIntakeConfig, TolerantMcpClient } from './plugin.ts'
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
