// Every page the site answers, as a Rendered (its Markdown and its HTML body): the five of the navigation, the
// contact form in a visitor's state, the receipt, the 404 and error pages. A page that does not change while
// the process runs is rendered once, on first use; /status once per status snapshot.
import type { Config } from '../../platform/config.ts'
import type { Accepted, ContactService } from '../contact/index.ts'
import type { StatusSnapshot } from '../status/index.ts'
import { referenceMarkdown, type OpenApiDocument } from './api-reference.ts'
import { formBlock, receiptBlock, type FormState } from './contact-form.ts'
import { renderSource, type Block, type Rendered } from './content.ts'
import { errorText } from './error-pages.ts'
import { block, example422, limitsMarkdown, mailboxesMarkdown } from './page-blocks.ts'
import type { PagePath, SourceName } from './page-list.ts'
import { statusBlock } from './status-view.ts'

export type PagesDeps = {
  config: Pick<Config, 'rateLimits' | 'mail' | 'idempotencyTtlHours'>
  contact: Pick<ContactService, 'subjects' | 'validate'>
  snapshot: Pick<StatusSnapshot, 'current'>
  openapi: () => unknown
  sources: Map<SourceName, string>
}

export type Pages = {
  /** A page of the navigation; the same object while it does not change (see SendOptions.reuse). */
  page(path: PagePath): Rendered | Promise<Rendered>
  /** The contact page with what a visitor sent, its errors or an alert (429, 503, a renewed form). */
  contactForm(state: FormState): Rendered
  receipt(accepted: Accepted): Rendered
  notFound(): Rendered
  error(status: number): Rendered
}

export function makePages(deps: PagesDeps): Pages {
  const { config, contact, snapshot, sources } = deps
  const render = (name: SourceName, values: Record<string, string> = {}, blocks: Record<string, Block> = {}) =>
    renderSource(sources.get(name)!, values, blocks)
  const once = new Map<string, Rendered>()
  const memo = (key: string, make: () => Rendered) => {
    let page = once.get(key)
    if (!page) once.set(key, page = make())
    return page
  }
  const subjects = () => contact.subjects.list()
  const contactPage = (state?: FormState) => render('contato', {}, { formulario: formBlock(subjects(), state) })

  // The snapshot object stays the same until it is refreshed: so does its page.
  let status: { of: unknown, page: Rendered } | undefined
  const statusPage = async () => {
    const current = await snapshot.current()
    if (status?.of !== current) status = { of: current, page: render('status', {}, { status: statusBlock(current) }) }
    return status.page
  }

  const byPath: Record<PagePath, () => Rendered | Promise<Rendered>> = {
    '/': () => memo('/', () => render('index')),
    '/contato': () => memo('/contato', () => contactPage()),
    '/status': statusPage,
    '/docs': () => memo('/docs', () => render('docs', { horas_chave: String(config.idempotencyTtlHours) }, {
      limites: block(limitsMarkdown(config.rateLimits)),
      exemplo_422: block(example422(contact)),
      referencia: block(referenceMarkdown(deps.openapi() as OpenApiDocument)),
    })),
    '/privacidade': () => memo('/privacidade', () => render('privacidade',
      { dias_retencao: String(config.mail.retentionDays) },
      { caixas: block(mailboxesMarkdown(subjects())) })),
  }

  return {
    page: (path) => byPath[path](),
    contactForm: contactPage,
    receipt: (accepted) => render('contato-enviado', {}, { recibo: receiptBlock(accepted) }),
    notFound: () => memo('404', () => render('404')),
    error: (status) => memo(`erro ${status}`, () => render('erro', { ...errorText(status), codigo: String(status) })),
  }
}
