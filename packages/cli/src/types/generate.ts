import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { EXIT_UNUSABLE, type Io } from '../command.ts'
import { messageOf } from '../lint/inject.ts'
import { PluginLoadError } from '../lint/load.ts'
import type { TypesOptions } from './command.ts'
import { emitDeclarations } from './emit.ts'
import { mcpTools } from './mcp-source.ts'
import { pluginTools, type ToolList } from './plugin-source.ts'

/** Loads the tools, writes the declarations, reports on stderr; resolves to the exit code. */
export async function generateTypes(options: TypesOptions, io: Io): Promise<number> {
  const say = (line: string): void => io.stderr(`dsh-harden types: ${line}\n`)
  const { source } = options
  let list: ToolList
  try {
    list =
      source.kind === 'plugin'
        ? await pluginTools(source.target, io.cwd, options.timeoutMs)
        : await mcpTools(source.kind === 'http' ? source : { ...source, cwd: io.cwd }, options.timeoutMs)
  } catch (error) {
    say(messageOf(error))
    if (error instanceof PluginLoadError) for (const note of error.notes) io.stderr(`note: ${note}\n`)
    return EXIT_UNUSABLE
  }
  for (const note of list.notes) io.stderr(`note: ${note}\n`)
  if (list.tools.length === 0) {
    say(`${list.label} ${source.kind === 'plugin' ? 'registered' : 'listed'} no tools; nothing to type`)
    return EXIT_UNUSABLE
  }
  const declarations = await emitDeclarations(list.tools, list.label)
  if (options.out === undefined) io.stdout(declarations.text)
  else {
    try {
      await writeFile(resolve(io.cwd, options.out), declarations.text)
    } catch (error) {
      say(`could not write ${options.out}: ${messageOf(error)}`)
      return EXIT_UNUSABLE
    }
  }
  for (const { name, reason } of declarations.unknown) io.stderr(`unknown ${name}: ${reason}\n`)
  for (const { name, reason } of declarations.skipped) io.stderr(`skipped ${name}: ${reason}\n`)
  const typed = list.tools.length - declarations.skipped.length
  const fallback = declarations.unknown.length
  const where = options.out === undefined ? '' : ` into ${options.out}`
  say(
    `${list.label}: ${typed} tool${typed === 1 ? '' : 's'} typed${where}${fallback === 0 ? '' : `, ${fallback} as unknown`}`,
  )
  return fallback > 0 ? 1 : 0
}
