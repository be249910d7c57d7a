// The HTTP policy every route inherits is a set of named plugins (each file of http/ exports its own, with
// the dependencies it has on the others). A feature's routes are registered through routesPlugin, which
// names them and refuses to load them before those policies: Fastify copies hooks, the error handler, the
// body parser and the shared schemas into a plugin when it is registered, and the rate limiter, OpenAPI and
// the gate learn of a route when it is added. A wrong order fails at start, naming the missing plugin.
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from 'fastify'
import fp from 'fastify-plugin'

/** The policies a route needs registered before it, in the order app.ts registers them. */
export const ROUTE_PREREQUISITES = [
  'request-guards', 'access-log', 'overload', 'error-handler', 'body-parser', 'cors', 'rate-limit', 'openapi', 'gate', 'idempotency-keys',
] as const

/**
 * `routes` (encapsulated or not, as it was written) as the plugin `name`, loaded only once every plugin of
 * `after` is registered.
 */
export function routesPlugin(
  name: string, routes: FastifyPluginAsync | FastifyPluginCallback, after: readonly string[] = ROUTE_PREREQUISITES,
): FastifyPluginAsync {
  return fp(async (app: FastifyInstance) => {
    await app.register(routes)
  }, { name, dependencies: [...after] })
}
