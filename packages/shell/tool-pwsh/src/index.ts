import { HardenToolPwsh } from './plugin.ts'

export { apply, HardenToolPwsh, inject, name, type ToolPwshEscalationConfig } from './plugin.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name the package. */
export default HardenToolPwsh
