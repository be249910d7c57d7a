// One log line per request, written when the answer is sent (Fastify's own two lines are turned off):
// what an operator greps for. The path is logged without its query string, which may carry personal
// data or a token pasted into a link, and without a secret carried in the path itself (secret-path.ts). The line is
// written by the app's logger with the request id (reqId) and the W3C trace id in it, so a request that logs nothing
// else never makes its own child logger (src/platform/http/request-logger.ts).
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ownRequestId } from './request-id.ts'
import { routeLabel } from './route-label.ts'
import { withoutSecrets } from './secret-path.ts'
import { traceContextOf } from './trace-context.ts'

/** Also told of every answer, in the same hook (request metrics): one hook per response, not one each. */
export type ResponseObserver = (req: FastifyRequest, reply: FastifyReply, route: string) => void

/**
 * Probes answered 2xx are logged at debug only: an orchestrator asks every few seconds per instance, and
 * those lines would bury the rest. A failing probe (503 while draining or with the database down) stays at info.
 */
const PROBES = new Set(['/api/health', '/api/health/ready'])

/** Long enough for any real path; a scanner's overlong one is cut, not copied into the log whole. */
const MAX_PATH = 256

const DEBUG_LEVELS = new Set(['debug', 'trace'])

export const accessLog = fp(async (app: FastifyInstance, opts: { observers?: ResponseObserver[] }) => {
  const observers = opts.observers ?? []
  const log = app.log
  // A callback hook: no promise per request on the hot path.
  app.addHook('onResponse', (req, reply, done) => {
    const route = routeLabel(req)
    logAccess(log, req, reply, route)
    for (const observe of observers) observe(req, reply, route)
    done()
  })
}, { name: 'access-log' })

function logAccess(log: FastifyBaseLogger, req: FastifyRequest, reply: FastifyReply, route: string): void {
  const status = reply.statusCode
  const probe = status < 400 && PROBES.has(route)
  // Checked first: building the line is most of the cost, and a probe's is usually not written.
  if (probe && !DEBUG_LEVELS.has(log.level)) return
  const q = req.url.indexOf('?')
  const path = withoutSecrets((q === -1 ? req.url : req.url.slice(0, q)).slice(0, 4 * MAX_PATH), MAX_PATH)
  const line: Record<string, unknown> = {
    reqId: req.id, traceId: traceContextOf(req.raw).traceId, method: req.method, route, path, status, ms: Math.round(reply.elapsedTime * 10) / 10, ip: req.ip,
  }
  // The client named the request (reqId is its X-Request-ID) and an audit row was written under the service's own id.
  const own = ownRequestId(req)
  if (own) line.requestIdServico = own
  if (probe) log.debug(line, 'request')
  else if (status >= 500) log.warn(line, 'request')
  else log.info(line, 'request')
}
