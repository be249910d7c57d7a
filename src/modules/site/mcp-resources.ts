// The site's MCP resources: every page of the site's navigation as the Markdown its route answers to
// `Accept: text/markdown` (site://inicio, site://contato, site://status, site://docs, site://privacidade), and
// the public OpenAPI document as /openapi.json serves it.
import type { McpContribution } from '../mcp/index.ts'
import { PAGES } from './page-list.ts'
import type { Pages } from './pages.ts'

export const OPENAPI_URI = 'site://openapi.json'

/** `site://` and the page's source name; the home page (`index`) is `inicio`. */
export function pageUri(source: string): string {
  return `site://${source === 'index' ? 'inicio' : source}`
}

export function siteResources(pages: () => Pick<Pages, 'page'>, openapi: () => unknown): McpContribution {
  return {
    resources: [
      ...PAGES.map(({ path, source, label }) => ({
        name: `pagina-${source}`, uri: pageUri(source), title: label, description: `A página ${path} do site, em Markdown.`,
        mimeType: 'text/markdown', read: async () => (await pages().page(path)).markdown,
      })),
      {
        name: 'openapi', uri: OPENAPI_URI, title: 'OpenAPI', description: 'O documento OpenAPI 3.1 da API pública (GET /openapi.json).',
        mimeType: 'application/json', read: async () => JSON.stringify(openapi()),
      },
    ],
    resourcesSummary: `the site's pages as Markdown (${PAGES.map((p) => `\`${pageUri(p.source)}\``).join(', ')}) `
      + `and the public OpenAPI document (\`${OPENAPI_URI}\`)`,
  }
}
