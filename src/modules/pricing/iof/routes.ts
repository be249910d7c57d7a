// GET /api/iof/aliquotas: the IOF table the service prices with (produto.md §2.4), to any credential.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { Database } from '../../../platform/db/database.ts'
import { Problem } from '../../../platform/http/schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { withTimeout } from '../../../platform/lib/timeout.ts'
import { iofRowJson, iofTable } from './store.ts'

const Row = Type.Object({
  perfil: Type.String({ enum: ['pj', 'pj_simples', 'pf'], description: '`pj_simples`: a Simples Nacional company\'s operation of at most R$ 30,000.00.' }),
  vigencia_inicio: Type.String({ format: 'date' }),
  vigencia_fim: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The last day it applied; null: in force.' }),
  taxa_diaria: Type.String({ description: 'A fraction a day: "0.000082" is 0.0082 %.' }),
  taxa_adicional: Type.String({ description: 'A fraction of the base, once.' }),
  fonte: Type.String({ description: 'The act that set it.' }),
})

export const IOF_ROUTE = {
  method: 'GET', url: '/api/iof/aliquotas', escopo: undefined,
  schema: {
    hide: true, operationId: 'aliquotasIof', tags: ['iof'], summary: 'The IOF/Crédito rates the service prices with, by profile and period',
    description: 'A new row starts when the rules change; no row is ever changed. The `isento` profile pays none and has no row.',
    response: {
      200: Type.Object({ itens: Type.Array(Row) }),
      401: Problem('No credential, or one refused (see WWW-Authenticate).', 'nao_autenticado'),
      429: Problem('Over the per-IP or the per-credential rate limit; see Retry-After (seconds).', 'limite_de_requisicoes'),
    },
  },
} as const satisfies RouteDefinition

export function iofRoutes(deps: { db: Database, budget: Budget, dbTimeoutMs: number }) {
  return async function (app: FastifyInstance) {
    app.get(IOF_ROUTE.url, { config: { rateLimit: rateLimitFor(deps.budget), credencial: {} }, schema: IOF_ROUTE.schema }, async () => {
      const rows = await withTimeout(iofTable(deps.db.orm), deps.dbTimeoutMs)
      return { itens: rows.map(iofRowJson) }
    })
  }
}
