export { canonicalPath, effectHash } from './binding-effect.ts'
export {
  ESCALATION_WRAPPED,
  type EscalatingDefinition,
  type EscalationDefinitionOptions,
  type EscalationDropEvent,
  type EscalationExec,
  type EscalationFamily,
  modeOf,
  withEscalationNormalization,
} from './definition.ts'
export { deniedFsError, fsFamily } from './fs-family.ts'
export {
  isNoWider,
  isSandboxMode,
  isStrictlyWider,
  SANDBOX_MODES,
  type SandboxMode,
  WIDER_MODES,
} from './modes.ts'
export {
  blankJustificationError,
  type DroppedField,
  type DroppedReason,
  type EscalationNormalization,
  JUSTIFICATION,
  normalizeEscalation,
  normalizeForPresentation,
  SANDBOX_PERMISSIONS,
} from './normalize.ts'
export {
  type EscalationPlugin,
  type EscalationPluginContext,
  type EscalationPluginOptions,
  escalationPlugin,
} from './plugin.ts'
export {
  bashWorkdirBase,
  deniedShellValue,
  type PolicySource,
  pwshWorkdirBase,
  type SandboxPolicyView,
  type ShellExecView,
  type ShellFamilyOptions,
  shellFamily,
  standingPolicy,
} from './shell-family.ts'
export {
  DEFAULT_TOKEN_TTL_MS,
  type DenialBinding,
  type DenialTokenOptions,
  DenialTokenStore,
  type IssuedToken,
  type RedeemFailure,
  type RedeemResult,
} from './tokens.ts'
export {
  advertisesEscalation,
  describeDrop,
  type EscalationConfig,
  type EscalationSettings,
  type EscalationTransform,
  type EscalationTransformOptions,
  escalationTransform,
  readEscalationConfig,
  type ToolRegistration,
} from './transform.ts'
export {
  ESCALATION_TOKEN,
  type EscalationSchemaOptions,
  escalationParameters,
  widenToNullable,
} from './wire-schema.ts'
