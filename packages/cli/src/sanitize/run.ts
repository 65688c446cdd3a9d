import { PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'
import { EXIT_UNUSABLE, type Io, UsageError } from '../command.ts'
import { resolveRoute } from '../mcp/route-option.ts'
import type { SanitizeOptions } from './command.ts'
import { parseTools, readInput, SanitizeInputError, type ToolsInput } from './input.ts'
import { formatReport } from './report.ts'
import { sanitizeTools } from './sanitize.ts'

/** Reads, projects and writes; resolves to the exit code (1 when a tool was rejected). */
export async function runSanitize(options: SanitizeOptions, io: Io): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`dsh-harden sanitize: ${message}\n`)
    return EXIT_UNUSABLE
  }
  let profile: ProfileId | undefined
  try {
    profile = await resolveRoute(options.profile === '' ? undefined : options.profile, '--route')
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message)
    throw error
  }
  if (profile === undefined) return fail(`missing --route; pass one of: ${PROFILE_IDS.join(', ')}`)
  let input: ToolsInput
  let shown: string
  try {
    const read = await readInput(options.input, io)
    shown = read.shown
    input = parseTools(read.text, read.shown)
  } catch (error) {
    if (error instanceof SanitizeInputError) return fail(error.message)
    throw error
  }
  const { tools, report } = sanitizeTools(input.tools, { profile, repair: options.repair })
  if (options.json) io.stdout(`${JSON.stringify({ profile, tools, report }, null, 2)}\n`)
  else {
    io.stdout(`${JSON.stringify(input.rewrap(tools), null, 2)}\n`)
    io.stderr(formatReport(profile, shown, report))
  }
  return report.some((tool) => tool.status === 'rejected') ? 1 : 0
}
