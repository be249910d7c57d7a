// Per-request metrics, recorded when the answer is sent. Labels are the route template Fastify matched
// (`/assets/:name`), never the raw URL: a scanner's random paths would otherwise each make a new series.
import type { FastifyInstance } from 'fastify'
import { routeLabel } from '../http/route-label.ts'
import type { Metrics } from './registry.ts'

/** Where a contact is accepted (202): the API and the site's own form. */
const CONTACT_ROUTES: Record<string, string> = { '/api/site/contato': 'api', '/contato': 'site' }

export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook: no promise per request on the hot path.
  app.addHook('onResponse', (req, reply, done) => {
    const route = routeLabel(req)
    metrics.httpDuration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000)
    const canal = CONTACT_ROUTES[route]
    if (canal && req.method === 'POST' && reply.statusCode === 202) metrics.contactsAccepted.inc({ canal })
    done()
  })
}
