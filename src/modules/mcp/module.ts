// The MCP module: the server at /api/mcp for agents, its tools answering as the REST routes do, and its
// resources (the site's pages, the public OpenAPI document).
import type { FastifyInstance } from 'fastify'
import { keyedLimit } from '../../platform/http/rate-limit.ts'
import { routeLabel } from '../../platform/http/route-label.ts'
import { defineModule } from '../../platform/module.ts'
import { mcpPathItem } from './document.ts'
import { MCP_PATH, mcpRoutes } from './routes.ts'
import { contactSender } from './send-contact.ts'
import { makeTools } from './tools.ts'

export const mcpModule = defineModule({
  name: 'mcp',
  setup({ config, db, clock, metrics, idempotency, use, http }) {
    const app = http as FastifyInstance
    const contact = use('contact')
    const status = use('status')
    const tools = makeTools({
      db, clock, snapshot: status.snapshot, contact, version: status.version, sendContact: contactSender(contact, idempotency, config.dbTimeoutMs),
      contactLimit: keyedLimit(app, config.rateLimits.contato, (req) => `mcp-contato:${req.credential!.id}`,
        (req) => metrics.rateLimited.inc({ route: routeLabel(req) })),
    })
    return {
      customerApiPaths: () => ({ [MCP_PATH.slice('/api'.length)]: mcpPathItem(tools) }),
      routes: mcpRoutes({
        db, clock, publicUrl: config.publicUrl, production: config.ambiente === 'producao', budget: config.rateLimits.leitura, version: config.build.versao,
        tools, resources: { pages: { page: (path) => app.sitePages.page(path) }, openapi: () => app.swagger() },
      }),
    }
  },
})
