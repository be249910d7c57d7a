// Probes, build identity and the public status view.
import { sql } from 'drizzle-orm'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../platform/config.ts'
import type { Database } from '../../platform/db/database.ts'
import { problem } from '../../platform/http/problem.ts'
import { rateLimitFor } from '../../platform/http/rate-limit.ts'
import { Problem, rateLimited } from '../../platform/http/schemas.ts'
import { ref } from '../../platform/http/schema-ref.ts'
import { serializeOnce } from '../../platform/http/serialize-once.ts'
import { withTimeout } from '../../platform/lib/timeout.ts'
import { HealthOut, StatusOut, VersionOut } from './schemas.ts'
import type { StatusSnapshot } from './snapshot.ts'

export type StatusRoutesDeps = {
  config: Pick<Config, 'build' | 'ambiente' | 'dbTimeoutMs' | 'rateLimits'>
  db: Database
  snapshot: StatusSnapshot
  /** Set when the process begins to stop: readiness fails at once so load balancers stop sending. */
  lifecycle: { draining: boolean }
}

export function statusRoutes(deps: StatusRoutesDeps) {
  const { config, db, snapshot, lifecycle } = deps
  const limit = { rateLimit: rateLimitFor(config.rateLimits.leitura) }
  const tags = ['status']
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get('/api/health', {
      config: limit,
      schema: {
        operationId: 'health', tags, summary: 'Liveness probe',
        description: 'Answers at once without touching the database, so a database fault does not fail it.',
        response: { 200: HealthOut, ...rateLimited },
      },
    }, async () => ({ status: 'ok' }))

    app.get('/api/health/ready', {
      config: limit,
      schema: {
        operationId: 'healthReady', tags, summary: 'Readiness probe',
        description: 'Runs a trivial query against the database; 503 when it fails or is too slow, and while the instance is stopping.',
        response: {
          200: HealthOut,
          503: Problem('The database connectivity check failed (or the instance is stopping: servico_indisponivel).', 'banco_indisponivel'),
          ...rateLimited,
        },
      },
    }, async () => {
      if (lifecycle.draining) throw problem('servico_indisponivel', { 'retry-after': '5' })
      try {
        await withTimeout(db.orm.execute(sql`SELECT 1`), config.dbTimeoutMs)
      } catch {
        throw problem('banco_indisponivel', { 'retry-after': '5' })
      }
      return { status: 'ok' }
    })

    const version = statusVersion(config)
    app.get('/api/version', {
      config: limit,
      schema: {
        operationId: 'version', tags, summary: 'Build identity',
        description: 'Version, commit, environment, build time and schema version of the running build; empty strings in an unstamped development build.',
        response: { 200: ref(VersionOut), ...rateLimited },
      },
    }, async () => version)

    const sendStatus = serializeOnce()
    // The reply is the snapshot's JSON, already serialized by the response schema (see the handler).
    app.get<{ Reply: string }>('/api/status', {
      config: limit,
      schema: {
        operationId: 'status', tags, summary: 'Operational status',
        description: 'Per-service state with latency, the overall state and any declared maintenance window. '
          + 'Served from a snapshot refreshed every few seconds; `verificado_em` is its time.',
        response: { 200: ref(StatusOut), ...rateLimited },
      },
    }, async (_req, reply) => {
      // A snapshot is read by every request until the next refresh: serialized once.
      return sendStatus(reply.header('cache-control', 'no-store'), await snapshot.current())
    })
  }
}

/** What GET /api/version answers (and the MCP tool `versao`): the running build's identity. */
export function statusVersion(config: Pick<Config, 'build' | 'ambiente'>) {
  return {
    versao: config.build.versao,
    commit: config.build.commit,
    ambiente: config.ambiente,
    build_em: config.build.buildEm,
    schema_versao: config.build.schemaVersao,
  }
}
