// Answering with a page: HTML in the layout or the page's Markdown, as the Accept header prefers, compressed
// as Accept-Encoding allows. A page object served again unchanged (a static page, the status of one snapshot)
// is laid out and compressed once; the contact form's token is put in afresh each time it is served.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Assets } from './assets.ts'
import { TOKEN_SLOT } from './contact-form.ts'
import type { Rendered } from './content.ts'
import { problem, sendProblem } from '../../platform/http/problem.ts'
import { EncodedBody, sendEncoded } from './encoded.ts'
import { layout } from './layout.ts'
import type { Empresa } from './settings.ts'
import { preferredFormat, type PageFormat } from './negotiate.ts'

export type SendOptions = {
  status?: number
  path: string
  cache?: string
  /** An error's status is never hidden behind a 406: when neither format is acceptable, HTML it is. */
  error?: boolean
  /** The same page object will be served again at this path: keep its bytes (never for a visitor's own page). */
  reuse?: boolean
}

export type SendPage = (req: FastifyRequest, reply: FastifyReply, page: Rendered, opts: SendOptions) => FastifyReply

const CONTENT_TYPES: Record<PageFormat, string> = { html: 'text/html; charset=utf-8', markdown: 'text/markdown; charset=utf-8' }

/** A page's bytes in one format: whole, or the text on either side of the form's token. */
type Prepared = { link: string } & ({ body: EncodedBody } | { around: [string, string] })

export function makeSendPage(assets: Pick<Assets, 'css' | 'js' | 'icon'>, formToken: () => string, empresa?: Empresa): SendPage {
  const kept = new WeakMap<Rendered, Map<string, Prepared>>()
  const prepare = (page: Rendered, format: PageFormat, path: string): Prepared => {
    const link = `<${linkPath(path)}>; rel="alternate"; type="text/markdown"`
    if (format === 'markdown') return { link, body: new EncodedBody(Buffer.from(page.markdown)) }
    const html = layout({ title: page.title, description: page.description, path, body: page.html, assets, empresa }).toString()
    const at = html.indexOf(TOKEN_SLOT)
    if (at < 0) return { link, body: new EncodedBody(Buffer.from(html)) }
    return { link, around: [html.slice(0, at), html.slice(at + TOKEN_SLOT.length)] }
  }
  const prepared = (page: Rendered, format: PageFormat, opts: SendOptions): Prepared => {
    if (!opts.reuse) return prepare(page, format, opts.path)
    let byKey = kept.get(page)
    if (!byKey) kept.set(page, byKey = new Map())
    const key = `${format} ${opts.path}`
    let found = byKey.get(key)
    if (!found) byKey.set(key, found = prepare(page, format, opts.path))
    return found
  }

  return (req, reply, page, opts) => {
    const format = preferredFormat(req.headers.accept) ?? (opts.error ? 'html' : null)
    if (!format) return notAcceptable(reply)
    const p = prepared(page, format, opts)
    reply.code(opts.status ?? 200)
    reply.header('content-type', CONTENT_TYPES[format])
    reply.header('cache-control', opts.cache ?? 'no-cache')
    if (format === 'html') reply.header('link', p.link)
    // A page holding the form gets a fresh fill-time token each time it is served.
    const body = 'body' in p ? p.body : new EncodedBody(Buffer.from(p.around[0] + formToken() + p.around[1]))
    return sendEncoded(req, reply, body)
  }
}

export function notAcceptable(reply: FastifyReply): FastifyReply {
  return sendProblem(reply, NOT_ACCEPTABLE)
}

const NOT_ACCEPTABLE = problem('nao_aceitavel')

/** A path as it may appear inside <…> of a Link header. */
function linkPath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c))
}
