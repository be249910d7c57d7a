// The route a request matched, as its template (`/assets/:name`), for logs and metrics: never the raw URL,
// which a scanner makes unique per request. Paths no route matched share one label.
import type { FastifyRequest } from 'fastify'

export const UNMATCHED_ROUTE = '(nao_encontrada)'

export function routeLabel(req: FastifyRequest): string {
  return req.routeOptions.url ?? UNMATCHED_ROUTE
}
