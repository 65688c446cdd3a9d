/** `mcp__srv__get-sum` → `McpSrvGetSum`: the words of a tool name, each capitalized, as a TypeScript identifier. */
export function pascalWords(name: string): string {
  const words = name.split(/[^\p{L}\p{Nd}]+/u).filter((word) => word !== '')
  const joined = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')
  if (joined === '') return 'Tool'
  return /^\p{Nd}/u.test(joined) ? `Tool${joined}` : joined
}

/** The declaration names already taken in one generated file (`ToolArgs`, each tool's `<Base>Args` and its subtypes). */
export class TypeNames {
  readonly #used = new Set<string>()

  reserve(name: string): void {
    this.#used.add(name)
  }

  has(name: string): boolean {
    return this.#used.has(name)
  }
}
