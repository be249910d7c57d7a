// The website: pages written once in Markdown (content/*.md) and answered as HTML in one layout or as that
// Markdown, by the Accept header; the contact form's own handler for browsers without JavaScript; the live
// status; the API reference rendered from /openapi.json; llms.txt, robots.txt, sitemap.xml; the static files.
// This file puts the parts together: each concern is in its own file beside it.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../platform/config.ts'
import type { ContactService } from '../contact/index.ts'
import type { StatusSnapshot } from '../status/index.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import { registerAssetRoutes } from './asset-routes.ts'
import { loadAssets } from './assets.ts'
import { FORM_PATH } from './contact-form.ts'
import { readSources } from './content.ts'
import { registerDiscovery } from './discovery.ts'
import { decorateSite, makeSiteAnswers } from './error-answers.ts'
import { registerFormPost } from './form-post.ts'
import { siteHeadersHook } from './headers.ts'
import { PAGES, SOURCES, type SourceName } from './page-list.ts'
import { makePages, type Pages } from './pages.ts'
import { layout, type SiteLayout } from './layout.ts'
import { makeSendPage } from './respond.ts'

export { siteError, siteNotFound } from './error-answers.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's layout with its assets, for pages served outside these routes (the account's, src/modules/account/web/). */
    siteLayout: SiteLayout
    /** The site's pages as rendered for its routes, for other readers of them (the MCP server's resources). */
    sitePages: Pages
  }
}

export type SiteDeps = {
  config: Config
  contact: ContactService
  snapshot: StatusSnapshot
  /** The OpenAPI document, as served at /openapi.json. */
  openapi: () => unknown
}

export function siteRoutes(deps: SiteDeps) {
  const { config, contact } = deps

  async function site(app: FastifyInstance): Promise<void> {
    // On the root (this plugin is not encapsulated): every response outside /api gets the site's headers,
    // whoever answers it: these routes, the not-found handler, the error handler.
    app.addHook('onSend', siteHeadersHook(config.ambiente === 'producao'))
    const [assets, sources] = await Promise.all([loadAssets(), readSources(SOURCES) as Promise<Map<SourceName, string>>])
    const pages = makePages({ ...deps, sources })
    const send = makeSendPage(assets, () => contact.formToken(), config.empresa)
    const answers = makeSiteAnswers(pages, send)
    decorateSite(app, answers)
    app.decorate('sitePages', pages)
    app.decorate('siteLayout', ((p) => layout({ ...p, assets, empresa: config.empresa }).toString()) satisfies SiteLayout)
    // A form is served even when its token's key cannot be read in time: a post of it then gets a fresh one.
    const prepareForm = () => withTimeout(contact.prepareForm(), config.dbTimeoutMs).catch(() => {})

    await app.register(async function sitePages(scope) {
      // Errors in these routes answer as pages (the API's handler would answer JSON).
      scope.setErrorHandler(answers.error)
      for (const { path } of PAGES) {
        // The live status is never cached; the other pages may be, but are revalidated.
        const cache = path === '/status' ? 'no-store' : 'no-cache'
        scope.get(path, async (req, reply) => {
          if (path === FORM_PATH) await prepareForm()
          return send(req, reply, await pages.page(path), { path, cache, reuse: true })
        })
      }
      registerFormPost(scope, { config, contact, pages, send, answers, prepareForm })
      registerDiscovery(scope, { publicUrl: config.publicUrl, pages })
      registerAssetRoutes(scope, assets, answers.notFound)
    })
  }

  return fp(site, { name: 'site', fastify: '5.x' })
}
