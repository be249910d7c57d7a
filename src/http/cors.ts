// Cross-origin reads of the public GET endpoints from anywhere (status widgets on other sites);
// cross-origin contact posts only from SITE_ORIGINS; nothing for the rest of /api.
import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'

export const PUBLIC_READS = ['/api/health', '/api/health/ready', '/api/version', '/api/status', '/api/site/contato/assuntos', '/api/site/contato/estado']
export const CONTACT_PATH = '/api/site/contato'

export async function registerCors(app: FastifyInstance, siteOrigins: string[]): Promise<void> {
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (req, cb) => {
      const path = (req.url ?? '').split('?')[0]!.replace(/\/$/, '')
      // An OPTIONS that is not a preflight would get @fastify/cors's 400 in text/plain; leaving it to the
      // gate gives the JSON answer any other method gets (405 with Allow on a public path, 401 elsewhere).
      if (req.method === 'OPTIONS' && !(req.headers.origin && req.headers['access-control-request-method'])) {
        cb(null, { origin: false })
      } else if (PUBLIC_READS.includes(path)) {
        cb(null, { origin: '*', methods: ['GET', 'HEAD'], maxAge: 86400, exposedHeaders: ['x-request-id'] })
      } else if (path === CONTACT_PATH && siteOrigins.length > 0) {
        cb(null, { origin: siteOrigins, methods: ['POST'], allowedHeaders: ['content-type', 'x-request-id'], maxAge: 600, exposedHeaders: ['x-request-id', 'retry-after'] })
      } else {
        cb(null, { origin: false })
      }
    },
  })
}
