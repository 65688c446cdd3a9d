import type { ListedTool } from '@dsh-harden/mcp-client'
import { isAlwaysLoad } from './render.ts'

export interface SearchCatalog {
  readonly server: string
  readonly serverDescription?: string | undefined
  readonly tools: readonly ListedTool[]
  readonly source: 'live' | 'memory' | 'cache'
}

export interface SearchHit {
  readonly server: string
  readonly tool: ListedTool
  readonly score: number
  readonly source: SearchCatalog['source']
}

/** Lower-case words of a name or text; `get-env`, `get_env` and `getEnv` all give `get`, `env`. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
}

function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_\s]+/g, '')
}

/**
 * Ranks tools across catalogs by how well they match the query: the whole query against the tool name first,
 * then each query word against the tool name, the server name, and the description. No catalog is fetched:
 * dormant servers take part through their cached metadata.
 */
export function searchCatalogs(
  catalogs: readonly SearchCatalog[],
  query: string,
  limit: number,
): SearchHit[] {
  const terms = words(query)
  const whole = normalized(query)
  if (terms.length === 0) return []
  const hits: SearchHit[] = []
  for (const catalog of catalogs) {
    const serverWords = new Set([...words(catalog.server), ...words(catalog.serverDescription ?? '')])
    for (const tool of catalog.tools) {
      const name = normalized(tool.name)
      const nameWords = new Set(words(tool.name))
      const description = typeof tool.description === 'string' ? tool.description : ''
      const descriptionWords = new Set(words(description))
      let score = 0
      if (name === whole) score += 20
      else if (whole.length > 2 && name.includes(whole)) score += 10
      let matched = 0
      for (const term of terms) {
        let best = 0
        if (nameWords.has(term)) best = 6
        else if (term.length > 2 && name.includes(term)) best = 4
        else if (descriptionWords.has(term)) best = 2
        else if (term.length > 3 && [...descriptionWords].some((word) => word.startsWith(term))) best = 1
        if (serverWords.has(term)) best = Math.max(best, 3)
        if (best > 0) matched++
        score += best
      }
      if (score === 0) continue
      // Every query word present beats a few strong ones; a hinted-hot tool wins ties.
      if (matched === terms.length && terms.length > 1) score += 4
      if (isAlwaysLoad(tool)) score += 0.5
      hits.push({ server: catalog.server, tool, score, source: catalog.source })
    }
  }
  hits.sort(
    (a, b) => b.score - a.score || a.server.localeCompare(b.server) || a.tool.name.localeCompare(b.tool.name),
  )
  return hits.slice(0, limit)
}
