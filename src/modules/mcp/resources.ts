// The MCP server's resources: every page of the site's navigation as the Markdown its route answers to
// `Accept: text/markdown` (site://inicio, site://contato, site://status, site://docs, site://privacidade), and
// the public OpenAPI document as /openapi.json serves it.
import type { McpServer } from '@modelcontextprotocol/server'
import { PAGES } from '../site/index.ts'
import type { Pages } from '../site/index.ts'

export type SiteResources = {
  pages: Pick<Pages, 'page'>
  openapi: () => unknown
}

export const OPENAPI_URI = 'site://openapi.json'

/** `site://` and the page's source name; the home page (`index`) is `inicio`. */
export function pageUri(source: string): string {
  return `site://${source === 'index' ? 'inicio' : source}`
}

export function registerResources(server: McpServer, site: SiteResources): void {
  for (const { path, source, label } of PAGES) {
    const uri = pageUri(source)
    server.registerResource(`pagina-${source}`, uri, {
      title: label, description: `A página ${path} do site, em Markdown.`, mimeType: 'text/markdown',
    }, async () => ({ contents: [{ uri, mimeType: 'text/markdown', text: (await site.pages.page(path)).markdown }] }))
  }
  server.registerResource('openapi', OPENAPI_URI, {
    title: 'OpenAPI', description: 'O documento OpenAPI 3.1 da API pública (GET /openapi.json).', mimeType: 'application/json',
  }, async () => ({ contents: [{ uri: OPENAPI_URI, mimeType: 'application/json', text: JSON.stringify(site.openapi()) }] }))
}
