// Per-request metrics, recorded when the answer is sent. Labels are the route template Fastify matched
// (`/assets/:name`), never the raw URL: a scanner's random paths would otherwise each make a new series.
import type { ResponseObserver } from '../http/access-log.ts'
import type { Metrics } from './registry.ts'

/** For the access log's hook (one hook per response for both). */
export function observeHttp(metrics: Metrics): ResponseObserver {
  return (req, reply, route) => {
    metrics.httpDuration.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000)
  }
}
