import { HardenToolBash } from './plugin.ts'

export { apply, HardenToolBash, inject, name, type ToolBashEscalationConfig } from './plugin.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name the package. */
export default HardenToolBash
