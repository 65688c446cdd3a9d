import * as ToolContractsWeb from './plugin.ts'

export { packageOfSpecifier } from '../dsh/plugin-package.ts'
export {
  type ContractsHandler,
  type ContractsResult,
  type ContractsRouteSource,
  contractsHandler,
} from './contracts-route.ts'
export { contractRow, contractsView, VIEW_LIMITS, type ViewLimits } from './contracts-view.ts'
export { apply, type ConnectionFace, inject, name } from './plugin.ts'
export { packagesByPluginName } from './plugin-packages.ts'
export {
  CONTRACTS_CHANNEL,
  CONTRACTS_ENDPOINT,
  CONTRACTS_PATH,
  type ContractFinding,
  type ContractRow,
  type ContractsReply,
  type ContractsRequest,
  type ContractsUnchanged,
  type ContractsView,
  type SchemaRule,
  VALIDATOR_CONSTRUCTS,
  VALIDATOR_FALLBACKS,
  type ValidatorConstruct,
  type ValidatorFallback,
  VERDICT_KINDS,
  type VerdictKind,
} from './wire.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name `@dsh-harden/overlay/web`. */
export default ToolContractsWeb
