import { HardenToolFs } from './plugin.ts'

export { apply, HardenToolFs, inject, name, type ToolFsEscalationConfig } from './plugin.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name the package. */
export default HardenToolFs
