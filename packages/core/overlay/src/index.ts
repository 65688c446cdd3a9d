import { HardenOverlay } from './plugin.ts'

export {
  addDefinitionTransform,
  applyDefinitionTransforms,
  type DefinitionTransform,
  type Registration,
} from './definition-transforms.ts'
export { recordedSource, SourceRecorder } from './early.ts'
export { validatorProblemNotice } from './notices.ts'
export { HardenOverlay, installOnToolsService, type OverlayConfig } from './plugin.ts'
export { installOnToolRuntimePrototype, type ToolRuntimeClass } from './prototype.ts'
export {
  guardRegister,
  type OverlayMode,
  type RegisteredTool,
  type RegisterMethod,
  type RegistrationGuardOptions,
  type RegistrationVerdict,
} from './registration.ts'
export { type ModelRoute, profileForRoute } from './route-projection.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name the package. */
export default HardenOverlay
