// What tells crawlers and agents about the site: llms.txt (the pages and the API, for language models),
// robots.txt and sitemap.xml. Each is the same for the life of the process, so it is built once.
import type { FastifyInstance, FastifyReply } from 'fastify'
// XML, not a page: html`…` knows HTML's places (tags, links), the sitemap needs only its text escaped.
// eslint-disable-next-line no-restricted-imports
import { escapeHtml } from '../../platform/lib/markup-escape.ts'
import { EncodedBody, sendEncoded } from './encoded.ts'
import { SITE_NAME } from './layout.ts'
import { PAGES } from './page-list.ts'
import type { Pages } from './pages.ts'

export function registerDiscovery(scope: FastifyInstance, deps: { publicUrl: string, pages: Pick<Pages, 'page'> }): void {
  const origin = deps.publicUrl
  const text = (reply: FastifyReply, type: string) => reply.header('content-type', `${type}; charset=utf-8`).header('cache-control', 'no-cache')

  let llms: EncodedBody | undefined
  scope.get('/llms.txt', async (req, reply) => {
    llms ??= new EncodedBody(Buffer.from(await llmsTxt(origin, deps.pages)))
    return sendEncoded(req, text(reply, 'text/plain'), llms)
  })

  const robots = `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`
  scope.get('/robots.txt', async (_req, reply) => text(reply, 'text/plain').send(robots))

  const urls = PAGES.map((p) => `  <url><loc>${escapeHtml(origin + p.path)}</loc></url>`).join('\n')
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  scope.get('/sitemap.xml', async (_req, reply) => text(reply, 'application/xml').send(sitemap))
}

async function llmsTxt(origin: string, pages: Pick<Pages, 'page'>): Promise<string> {
  const lines = [
    `# ${SITE_NAME}`, '',
    '> Plataforma de factoring como serviço. Esta parte é pública: status operacional, formulário de contato e a API pública (sete endpoints, sem credencial). '
    + 'Cada página abaixo responde em Markdown quando o pedido prefere `text/markdown` (cabeçalho `Accept: text/markdown`).', '',
    '## Páginas', '',
    ...await Promise.all(PAGES.map(async (p) => {
      const page = await pages.page(p.path)
      return `- [${page.title}](${origin}${p.path}): ${page.description}`
    })),
    '', '## API', '',
    `- [OpenAPI 3.1.0](${origin}/openapi.json): o contrato da API pública, servida em ${origin}/api`,
    `- [Referência da API](${origin}/docs): guia e referência legível, gerados do mesmo documento`,
    '',
  ]
  return lines.join('\n')
}
