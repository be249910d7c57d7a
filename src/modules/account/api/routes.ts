// The credential layer's own endpoints: who am I, my customer's tokens (list, revoke), my customer's audit trail,
// and their OpenAPI document. Each declares the credential and scope it needs (`config.credencial`), so the gate
// guards it; what each answers is in views.ts (every query in the credential's customer's transaction).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Config } from '../../../platform/config.ts'
import { checkPeriods } from '../../../platform/http/list-query.ts'
import type { Database } from '../../../platform/db/database.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import type { Credential } from '../../credentials/index.ts'
import { problem } from '../../../platform/http/problem.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { accountDocument } from './openapi.ts'
import { ACCOUNT_ROUTES } from './definitions.ts'
import { accountView, auditView, revokeOwnTokenIn, tokensView } from './views.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import { byCredential } from '../../credentials/index.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'

export type AccountRoutesDeps = {
  config: Pick<Config, 'rateLimits' | 'dbTimeoutMs'>
  db: Database
  clock: Clock
  idempotency: Idempotency
  /** Paths of other parts behind the same credentials, for the account's OpenAPI document (the MCP server's). */
  documentPaths?: Record<string, Record<string, unknown>>
}

const NOT_FOUND = problem('nao_encontrado')
/** A revocation's transaction, in single queries (DB_TIMEOUT_MS): the key's lock and read, the change, its audit row, the key's row. */
const TRANSACTION_TIMEOUT_FACTOR = 4

export function accountRoutes(deps: AccountRoutesDeps) {
  const { db, clock, idempotency } = deps
  const limit = rateLimitFor(deps.config.rateLimits.leitura)
  const document = accountDocument(deps.documentPaths)
  const credentialOf = (req: FastifyRequest): Credential => req.credential!
  const config = (escopo: string | undefined) => ({ rateLimit: limit, credencial: { escopo } })
  const { conta, tokens, revogar, auditoria, documento } = ACCOUNT_ROUTES

  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.get(conta.url, { config: config(conta.escopo), schema: conta.schema }, async (req) => accountView(db, credentialOf(req)))

    app.get(tokens.url, { config: config(tokens.escopo), schema: tokens.schema }, async (req) => tokensView(db, credentialOf(req), clock.now()))

    // The revocation (audited by the store), and with a key its stored answer, in one transaction of the customer's.
    mutationRoute<{ Params: { id: string } }, ActionContext>(fastify, { idempotency, clock, dbTimeoutMs: deps.config.dbTimeoutMs }, {
      method: revogar.method, url: revogar.url, idempotency: 'accepted', config: config(revogar.escopo), schema: revogar.schema,
      caller: byCredential, timeoutFactor: TRANSACTION_TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const done = await revokeOwnTokenIn(tx, credentialOf(req), req.params.id, action)
        return { answer: done === 'not_found' ? problemAnswer(NOT_FOUND) : jsonAnswer(204, null) }
      },
    })

    app.get(auditoria.url, { config: config(auditoria.escopo), schema: auditoria.schema }, async (req) => {
      // Days the database stores (no year 0), and a period that is one, as every list's.
      checkPeriods(req.query, [['de', 'ate']])
      const q = req.query
      const page = { limit: Number(q.limite ?? 50), ...(q.antes ? { before: Number(q.antes) } : {}) }
      return auditView(db, credentialOf(req), page, { atorId: q.ator_id?.toLowerCase(), acao: q.acao, alvoId: q.alvo_id?.toLowerCase(), de: q.de, ate: q.ate })
    })

    app.get(documento.url, { config: config(documento.escopo), schema: documento.schema }, async () => document)
  }
}
