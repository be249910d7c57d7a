// The site module: the website (pages from content/*.md, the no-JS contact form, the live status, discovery
// files, assets), and the pages the HTTP policy answers errors and unknown paths with.
import type { FastifyInstance } from 'fastify'
import { defineModule } from '../../platform/module.ts'
import { siteResources } from './mcp-resources.ts'
import { siteError, siteNotFound, siteRoutes } from './routes.ts'

export const siteModule = defineModule({
  name: 'site',
  setup({ config, use, http }) {
    const app = http as FastifyInstance
    return {
      errorPages: { error: siteError, notFound: siteNotFound },
      routes: siteRoutes({ config, contact: use('contact'), snapshot: use('status').snapshot, openapi: () => app.swagger() }),
      contributes: { mcp: siteResources(() => app.sitePages, () => app.swagger()) },
    }
  },
})
