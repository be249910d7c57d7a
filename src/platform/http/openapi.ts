// The public contract as OpenAPI 3.1.0, generated from the route schemas: only the seven public paths,
// relative to the `/api` server, with the eight named component schemas.
// The features' named schemas are passed in: http/ is policy shared by every feature and imports none.
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { TSchema } from 'typebox'
import { HTTPValidationError, ValidationError } from './schemas.ts'

export const CONTRACT_VERSION = '1.0.0'

/** `schemas`: the features' component schemas (each with an $id), besides the two 422 ones. */
export const openApi = fp(async (app: FastifyInstance, opts: { schemas: TSchema[] }) => {
  for (const s of [...opts.schemas, HTTPValidationError, ValidationError]) app.addSchema(s)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Factoring platform: public API',
        version: CONTRACT_VERSION,
        description: 'The part of the API open without credentials: liveness and readiness probes, build identity, '
          + 'operational status with maintenance windows, and the website contact form. '
          + 'Every other path under /api answers 401 without credentials; credentials are issued to subscribers through the commercial channel. '
          + 'Errors are JSON with a stable `detail` code; all endpoints are rate limited per IP (429 with Retry-After in seconds).',
        contact: { name: 'Canal comercial (credenciais e contratos)' },
      },
      servers: [{ url: '/api', description: 'This origin' }],
      tags: [
        { name: 'status', description: 'Probes, build identity and operational status' },
        { name: 'contato', description: 'The website contact form' },
      ],
    },
    refResolver: {
      // Name components after the schemas' $id instead of def-0, def-1…
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url }) => {
      const isPublic = url.startsWith('/api/') && !url.includes('*')
      if (!isPublic) return { schema: { ...schema, hide: true }, url }
      return { schema, url: url.slice('/api'.length) }
    },
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('access-control-allow-origin', '*')
    return app.swagger()
  })
}, { name: 'openapi' })
