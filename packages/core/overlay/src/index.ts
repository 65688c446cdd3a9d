import { HardenOverlay } from './plugin.ts'

export type { OverlayConfig } from './config.ts'
export { recordedSource, SourceRecorder } from './dsh/early.ts'
export type { Registration } from './dsh/registrant.ts'
export type { DefinitionTransform, RegisteredTool, RegisterMethod } from './dsh/tool-definition.ts'
export { addDefinitionTransform, applyDefinitionTransforms } from './dsh/transforms.ts'
export {
  guardRegister,
  installOnToolsService,
  type RegistrationGuardOptions,
  type RegistrationVerdict,
} from './gate/bare-guard.ts'
export type { OverlayMode } from './gate/judge.ts'
export { validatorProblemNotice } from './gate/notices.ts'
export { installOnToolRuntimePrototype, type ToolRuntimeClass } from './gate/prototype.ts'
export { type ModelRoute, profileForRoute } from './route/route-projection.ts'
export { HardenOverlay }

/** The module is itself a cordis plugin, so a DSH profile row can name the package. */
export default HardenOverlay
