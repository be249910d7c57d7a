// The website: pages written once in Markdown (content/*.md) and answered as HTML in one layout or as that
// Markdown, by the Accept header; the contact form's own handler for browsers without JavaScript; the live
// status; the API reference rendered from /openapi.json; llms.txt, robots.txt, sitemap.xml; the static files.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Config } from '../config.ts'
import { CONTACT_API_PATH } from '../contact/paths.ts'
import type { ContactService } from '../contact/service.ts'
import { RETRY_AFTER_SECONDS, submitContact } from '../contact/submit.ts'
import { HttpProblem } from '../http/problem.ts'
import { errorFacts } from '../log-safety.ts'
import { escapeHtml } from '../markup-escape.ts'
import { rateLimitFor } from '../http/rate-limit.ts'
import { RequestValidationError } from '../http/validation-errors.ts'
import type { StatusSnapshot } from '../status/snapshot.ts'
import { withTimeout } from '../timeout.ts'
import { referenceMarkdown, type OpenApiDocument } from './api-reference.ts'
import { loadAssets } from './assets.ts'
import { formBlock, formInput, receiptBlock, TOKEN_SLOT, type FormState } from './contact-form.ts'
import { readSources, renderSource, type Block, type Rendered } from './content.ts'
import { tooManyRequests, UNAVAILABLE } from './format.ts'
import { addVary, siteHeadersHook } from './headers.ts'
import { layout, SITE_NAME } from './layout.ts'
import { cell, code, markdownToHtml } from './markdown.ts'
import { preferredEncoding, preferredFormat } from './negotiate.ts'
import { statusBlock } from './status-view.ts'

export type SiteDeps = {
  config: Config
  contact: ContactService
  snapshot: StatusSnapshot
  /** The OpenAPI document, as served at /openapi.json. */
  openapi: () => unknown
}

/** The pages, in the order of the navigation, llms.txt and the sitemap. */
export const PAGES = [
  { path: '/', source: 'index' },
  { path: '/contato', source: 'contato' },
  { path: '/status', source: 'status' },
  { path: '/docs', source: 'docs' },
  { path: '/privacidade', source: 'privacidade' },
] as const

const OTHER_SOURCES = ['404', 'contato-enviado', 'erro'] as const
type SourceName = (typeof PAGES)[number]['source'] | (typeof OTHER_SOURCES)[number]

const FORM_EXPIRED = 'Sua mensagem ainda não foi enviada: a página precisava ser atualizada. Confira os dados e envie de novo.'

const PAGE_METHODS: Record<string, string> = Object.fromEntries(PAGES.map((p) => [p.path, p.path === '/contato' ? 'GET, HEAD, POST' : 'GET, HEAD']))

type SendOptions = {
  status?: number
  path: string
  cache?: string
  /** An error's status is never hidden behind a 406: when neither format is acceptable, HTML it is. */
  error?: boolean
}

/** What the site needs to answer, per app (the not-found handler reaches it through the root instance). */
type Site = {
  notFound(req: FastifyRequest, reply: FastifyReply): FastifyReply
  error(err: Error, req: FastifyRequest, reply: FastifyReply): FastifyReply
}

// Decorated on the root, so every encapsulated instance (and the not-found handler) reaches it.
const SITE = Symbol('site')
const siteOf = (instance: FastifyInstance) => (instance as unknown as Record<symbol, Site | undefined>)[SITE]

const ERRORS: Record<number, [string, string]> = {
  400: ['Requisição inválida', 'O pedido não pôde ser entendido.'],
  403: ['Envio recusado', 'O formulário só pode ser enviado a partir deste site.'],
  405: ['Método não permitido', 'Esta página não aceita este método.'],
  413: ['Envio grande demais', 'O conteúdo enviado passa do tamanho aceito. Encurte a mensagem e envie de novo.'],
  415: ['Formato não aceito', 'Envie o formulário como application/x-www-form-urlencoded, ou use a API com JSON.'],
  422: ['Envio ilegível', 'O conteúdo enviado não pôde ser lido. Preencha o formulário e envie de novo.'],
  429: ['Muitas requisições', 'Foram feitos pedidos demais em pouco tempo. Aguarde e tente de novo.'],
  500: ['Erro interno', 'Algo deu errado do nosso lado. Tente de novo em instantes; se persistir, veja a página de status.'],
  503: ['Serviço indisponível', UNAVAILABLE],
}

export function siteRoutes(deps: SiteDeps) {
  const { config, contact, snapshot } = deps
  const production = config.ambiente === 'producao'

  async function site(app: FastifyInstance): Promise<void> {
    // On the root (this plugin is not encapsulated): every response outside /api gets the site's headers,
    // whoever answers it: these routes, the not-found handler, the error handler.
    app.addHook('onSend', siteHeadersHook(production))
    const [assets, sources] = await Promise.all([
      loadAssets(),
      readSources([...PAGES.map((p) => p.source), ...OTHER_SOURCES]) as Promise<Map<SourceName, string>>,
    ])

    // Pages that do not change while the process runs are rendered once, on first use.
    const once = new Map<string, Rendered>()
    const memo = (key: string, make: () => Rendered) => {
      let page = once.get(key)
      if (!page) once.set(key, page = make())
      return page
    }

    const send = (req: FastifyRequest, reply: FastifyReply, page: Rendered, opts: SendOptions): FastifyReply => {
      const format = preferredFormat(req.headers.accept) ?? (opts.error ? 'html' : null)
      if (!format) return notAcceptable(reply)
      // A page holding the form gets a fresh fill-time token each time it is served.
      const html = page.html.includes(TOKEN_SLOT) ? page.html.replace(TOKEN_SLOT, contact.formToken()) : page.html
      const body = format === 'markdown'
        ? page.markdown
        : layout({ title: page.title, description: page.description, path: opts.path, body: html, assets })
      reply.code(opts.status ?? 200)
      reply.header('content-type', format === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8')
      reply.header('cache-control', opts.cache ?? 'no-cache')
      if (format === 'html') reply.header('link', `<${linkPath(opts.path)}>; rel="alternate"; type="text/markdown"`)
      return sendCompressed(req, reply, Buffer.from(body))
    }

    const render = (name: SourceName, values: Record<string, string> = {}, blocks: Record<string, Block> = {}) =>
      renderSource(sources.get(name)!, values, blocks)

    const errorPage = (req: FastifyRequest, reply: FastifyReply, status: number, path: string): FastifyReply => {
      const [titulo, explicacao] = ERRORS[status] ?? ERRORS[500]!
      return send(req, reply, render('erro', { titulo, explicacao, codigo: String(status) }), { status, path, cache: 'no-store', error: true })
    }
    const notFound: Site['notFound'] = (req, reply) => {
      const path = req.url.split('?')[0]!
      const allowed = PAGE_METHODS[path.length > 1 ? path.replace(/\/$/, '') : path]
      if (allowed) {
        reply.header('allow', allowed)
        return errorPage(req, reply, 405, path)
      }
      return send(req, reply, memo('404', () => render('404')), { status: 404, path, cache: 'no-store' })
    }

    // A form is served even when its token's key cannot be read in time: a post of it then gets a fresh one.
    const prepareForm = () => withTimeout(contact.prepareForm(), config.dbTimeoutMs).catch(() => {})
    const subjects = () => contact.subjects.list()
    const contactPage = (state?: FormState) => render('contato', {}, { formulario: formBlock(subjects(), state) })
    const handleError = (err: FastifyError | HttpProblem | RequestValidationError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
      const status = err instanceof HttpProblem || err instanceof RequestValidationError ? err.statusCode : err.statusCode ?? 500
      const path = req.url.split('?')[0]!
      if (status === 429 && req.method === 'POST' && path.replace(/\/$/, '') === '/contato') {
        const seconds = Number.parseInt(String(reply.getHeader('retry-after') ?? ''), 10)
        const values = formInput(req.body)?.values ?? {}
        return send(req, reply, contactPage({ values, errors: [], alert: tooManyRequests(Number.isFinite(seconds) ? seconds : null) }), { status: 429, path: '/contato', cache: 'no-store', error: true })
      }
      if (status >= 500) req.log.error(errorFacts(err), 'unexpected error')
      if (status === 404) return notFound(req, reply)
      const known = status === 429 || status === 413 || status === 415 || status === 422 || status === 403 || status === 503
      return errorPage(req, reply, known ? status : status >= 500 ? 500 : 400, path)
    }
    app.decorate(SITE, { notFound, error: handleError } satisfies Site)

    await app.register(async function sitePages(scope) {
      // Errors in these routes answer as pages (the API's handler would answer JSON).
      scope.setErrorHandler(handleError)

      // Each page's Rendered; the static ones are rendered once, on first use.
      const pages: Record<(typeof PAGES)[number]['path'], () => Promise<Rendered> | Rendered> = {
        '/': () => memo('/', () => render('index')),
        '/contato': () => memo('/contato', () => contactPage()),
        '/status': async () => render('status', {}, { status: statusBlock(await snapshot.current()) }),
        '/docs': () => memo('/docs', () => render('docs', {}, {
          limites: block(limitsMarkdown(config)),
          exemplo_422: block(example422(contact)),
          referencia: block(referenceMarkdown(deps.openapi() as OpenApiDocument)),
        })),
        '/privacidade': () => memo('/privacidade', () => render('privacidade',
          { dias_retencao: String(config.mail.retentionDays) },
          { caixas: block(mailboxesMarkdown(subjects())) })),
      }
      for (const { path } of PAGES) {
        // The live status is never cached; the other pages may be, but are revalidated.
        const cache = path === '/status' ? 'no-store' : 'no-cache'
        scope.get(path, async (req, reply) => {
          if (path === '/contato') await prepareForm()
          return send(req, reply, await pages[path](), { path, cache })
        })
      }

      // The form without JavaScript: the API's validation and storage, answered as a page.
      scope.post('/contato', {
        // After the body is read, so that a refused submission can be shown again with what was typed.
        config: { rateLimit: { ...rateLimitFor(config.rateLimits.contato), hook: 'preHandler' } },
      }, async (req, reply) => {
        if (!preferredFormat(req.headers.accept)) return notAcceptable(reply)
        if (crossSite(req, config.siteOrigins)) return errorPage(req, reply, 403, '/contato')
        const form = formInput(req.body)
        if (!form) return errorPage(req, reply, 415, '/contato')
        await prepareForm()
        const checked = contact.validate(form.input)
        if (!checked.ok) {
          return send(req, reply, contactPage({ values: form.values, errors: checked.errors }), { status: 422, path: '/contato', cache: 'no-store' })
        }
        const result = await submitContact(contact, { value: checked.value, posted: form.raw, via: 'site', requestId: req.id, ip: req.ip, log: req.log }, config.dbTimeoutMs)
        if (result.kind === 'expired') {
          // A person who left the page open (or got it while the database was away): the form again, with a fresh token.
          return send(req, reply, contactPage({ values: form.values, errors: [], alert: FORM_EXPIRED }), { status: 200, path: '/contato', cache: 'no-store' })
        }
        if (result.kind === 'unavailable') {
          reply.header('retry-after', String(RETRY_AFTER_SECONDS))
          return send(req, reply, contactPage({ values: form.values, errors: [], alert: UNAVAILABLE }), { status: 503, path: '/contato', cache: 'no-store' })
        }
        // A bot's contact gets the same page as a person's; only the log says.
        return send(req, reply, render('contato-enviado', {}, { recibo: receiptBlock(result.accepted) }), { status: 202, path: '/contato', cache: 'no-store' })
      })

      scope.get('/llms.txt', async (req, reply) => {
        const origin = config.publicUrl
        const lines = [
          `# ${SITE_NAME}`, '',
          '> Plataforma de factoring como serviço. Esta parte é pública: status operacional, formulário de contato e a API pública (sete endpoints, sem credencial). '
          + 'Cada página abaixo responde em Markdown quando o pedido prefere `text/markdown` (cabeçalho `Accept: text/markdown`).', '',
          '## Páginas', '',
          ...await Promise.all(PAGES.map(async (p) => {
            const page = await pages[p.path]()
            return `- [${page.title}](${origin}${p.path}): ${page.description}`
          })),
          '', '## API', '',
          `- [OpenAPI 3.1.0](${origin}/openapi.json): o contrato da API pública, servida em ${origin}/api`,
          `- [Referência da API](${origin}/docs): guia e referência legível, gerados do mesmo documento`,
          '',
        ]
        reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache')
        return sendCompressed(req, reply, Buffer.from(lines.join('\n')))
      })

      scope.get('/robots.txt', async (req, reply) => {
        reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache')
        return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${config.publicUrl}/sitemap.xml\n`
      })

      scope.get('/sitemap.xml', async (req, reply) => {
        const origin = config.publicUrl
        const urls = PAGES.map((p) => `  <url><loc>${escapeHtml(origin + p.path)}</loc></url>`).join('\n')
        reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'no-cache')
        return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
      })

      scope.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
        const asset = assets.byName.get(req.params.name)
        if (!asset) return notFound(req, reply)
        reply.header('content-type', asset.type)
        reply.header('etag', asset.etag)
        reply.header('cache-control', 'public, max-age=31536000, immutable')
        addVary(reply, 'Accept-Encoding')
        if (etagMatches(req.headers['if-none-match'], asset.etag)) return reply.code(304).send()
        const enc = preferredEncoding(req.headers['accept-encoding'])
        if (enc !== 'identity') reply.header('content-encoding', enc)
        return reply.send(enc === 'br' ? asset.br : enc === 'gzip' ? asset.gzip : asset.identity)
      })

      scope.get('/favicon.ico', async (_req, reply) => reply.redirect(assets.icon, 301))
    })
  }

  return fp(site, { name: 'site', fastify: '5.x' })
}

/** Paths outside /api that no route serves: the 404 page, negotiated like every page (405 on a page's path). */
export async function siteNotFound(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const site = siteOf(req.server)
  if (!site) throw new HttpProblem(404, 'nao_encontrado')
  return site.notFound(req, reply)
}

/**
 * An error raised outside the site's routes on a site path (the not-found handler's rate limit, a body too
 * large for an unknown path) answered as a page. For the app's error handler to call on non-/api paths;
 * undefined when the site is not registered on this instance.
 */
export function siteError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (!(err instanceof Error)) return undefined
  return siteOf(req.server)?.error(err, req, reply)
}

function notAcceptable(reply: FastifyReply): FastifyReply {
  return reply.code(406).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store')
    .send(JSON.stringify({ detail: 'nao_aceitavel', aceitos: ['text/html', 'text/markdown'] }))
}

function sendCompressed(req: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply {
  addVary(reply, 'Accept-Encoding')
  if (body.length < 1024) return reply.send(body)
  const enc = preferredEncoding(req.headers['accept-encoding'])
  if (enc === 'identity') return reply.send(body)
  reply.header('content-encoding', enc)
  return reply.send(enc === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level: 6 }))
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

/** A path as it may appear inside <…> of a Link header. */
function linkPath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c))
}

/** A cross-site form post (another site submitting our form with a visitor's browser), by its Origin. */
function crossSite(req: FastifyRequest, allowed: string[]): boolean {
  const origin = req.headers.origin
  if (!origin || origin === 'null') return false
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return true
  }
  if (allowed.includes(url.origin)) return false
  try {
    // Both as the origin's scheme writes them (a default port is left out of an Origin).
    return new URL(`${url.protocol}//${req.host}`).host !== url.host
  } catch {
    return true
  }
}

function block(markdown: string): Block {
  return { markdown, html: markdownToHtml(markdown) }
}

function limitsMarkdown(config: Config): string {
  const { leitura, contato, restrito } = config.rateLimits
  const per = (b: { max: number, windowSeconds: number }) => `${b.max} por ${b.windowSeconds % 60 === 0 ? `${b.windowSeconds / 60} minuto${b.windowSeconds === 60 ? '' : 's'}` : `${b.windowSeconds} segundos`}`
  return [
    '| Onde | Limite por IP |', '|---|---|',
    `| Leituras e sondas (${code('GET')} dos endpoints públicos) | ${per(leitura)}, por endpoint |`,
    `| Formulário de contato (${code(`POST ${CONTACT_API_PATH}`)}, e o formulário do site) | ${per(contato)} |`,
    `| Qualquer outro caminho sob ${code('/api')} (as respostas 401) | ${per(restrito)} |`,
    '',
  ].join('\n')
}

function example422(contact: ContactService): string {
  const sample = { nome: 'M', email: 'maria@empresa', mensagem: 'Olá' }
  const checked = contact.validate(sample)
  const detail = checked.ok ? [] : checked.errors
  return [
    `Por exemplo, o corpo ${code(JSON.stringify(sample))} recebe:`, '',
    '```json', `{"detail": [\n${detail.map((d) => `  ${JSON.stringify(d)}`).join(',\n')}\n]}`, '```', '',
  ].join('\n')
}

function mailboxesMarkdown(subjects: { codigo: string, rotulo: string, email: string }[]): string {
  return ['| Assunto escolhido | Caixa que recebe |', '|---|---|', ...subjects.map((s) => `| ${cell(s.rotulo)} | ${cell(s.email)} |`), ''].join('\n')
}
