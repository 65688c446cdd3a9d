/**
 * The contract compiler under test, read from source: testkit does not depend on `@dsh-harden/tools` yet (adding it
 * is a lockfile change). Every round-trip module imports it from here, so switching to the package is one line.
 */
export {
  createToolContract,
  type JsonObject,
  type JsonValue,
  PROFILE_IDS,
  type ProfileId,
  type Projection,
  parsePointer,
  stockRouteVerdict,
  type ToolContract,
} from '../../../../core/tools/src/index.ts'
