// The credential layer's own endpoints: who am I, my customer's tokens (list, revoke), my customer's audit trail,
// and their OpenAPI document. Each declares the credential and scope it needs (`config.credencial`), so the gate
// guards it; every query runs in the credential's customer's transaction (withTenant), under row-level security.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { listAudit } from '../auth/audit/store.ts'
import { getCustomer } from '../auth/customers/store.ts'
import { actionContext, actorOf, type Credential } from '../auth/http/credential.ts'
import { withTenant } from '../auth/tenancy.ts'
import { tokenJson } from '../auth/tokens/json.ts'
import { getToken, listTokens, revokeToken } from '../auth/tokens/store.ts'
import { getUser } from '../auth/users/store.ts'
import { problem } from '../http/problem.ts'
import { rateLimitFor } from '../http/rate-limit.ts'
import { isUuid } from '../uuid.ts'
import { accountDocument } from './openapi.ts'
import { ACCOUNT_ROUTES } from './definitions.ts'

export type AccountRoutesDeps = {
  config: Pick<Config, 'rateLimits'>
  db: Database
  clock: Clock
}

const NOT_FOUND = problem('nao_encontrado')

export function accountRoutes(deps: AccountRoutesDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.config.rateLimits.leitura)
  const document = accountDocument()
  const credentialOf = (req: FastifyRequest): Credential => req.credential!
  const config = (escopo: string | undefined) => ({ rateLimit: limit, credencial: { escopo } })
  const { conta, tokens, revogar, auditoria, documento } = ACCOUNT_ROUTES

  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.get(conta.url, { config: config(conta.escopo), schema: conta.schema }, async (req) => {
      const c = credentialOf(req)
      return withTenant(db, c.clienteId, async (tx) => {
        const cliente = (await getCustomer(tx, c.clienteId))!
        const nome = c.kind === 'pat' ? (await getToken(tx, c.clienteId, c.id))?.nome : (await getUser(tx, c.usuarioId!))?.nome
        return {
          cliente: { id: cliente.id, nome: cliente.nome },
          credencial: { tipo: c.kind, id: c.id, nome: nome ?? '', escopos: [...c.escopos], expira_em: c.expiraEm.toISOString(), dpop: c.dpop },
        }
      })
    })

    app.get(tokens.url, { config: config(tokens.escopo), schema: tokens.schema }, async (req) => {
      const c = credentialOf(req)
      const now = clock.now()
      const tokens = await withTenant(db, c.clienteId, (tx) => listTokens(tx, c.clienteId))
      return { tokens: tokens.map((t) => tokenJson(t, now)) }
    })

    app.delete(revogar.url, { config: config(revogar.escopo), schema: revogar.schema }, async (req, reply) => {
      const c = credentialOf(req)
      const tokenId = req.params.id
      // Another customer's id is as unknown as a made-up one: row-level security hides it either way.
      if (!isUuid(tokenId)) throw NOT_FOUND
      const ctx = actionContext(req, actorOf(c), clock.now())
      const outcome = await withTenant(db, c.clienteId, (tx) => revokeToken(tx, { clienteId: c.clienteId, tokenId }, ctx))
      if (outcome === 'not_found') throw NOT_FOUND
      return reply.code(204).send(null)
    })

    app.get(auditoria.url, { config: config(auditoria.escopo), schema: auditoria.schema }, async (req) => {
      const c = credentialOf(req)
      const page = await withTenant(db, c.clienteId, (tx) => listAudit(tx, c.clienteId, {
        limit: Number(req.query.limite ?? 50), ...(req.query.antes ? { before: Number(req.query.antes) } : {}),
      }))
      return {
        itens: page.items.map((e) => ({
          id: e.id, em: e.em.toISOString(), ator_tipo: e.atorTipo, ator_id: e.atorId, acao: e.acao, alvo_id: e.alvoId, motivo: e.motivo,
          request_id: e.requestId,
        })),
        proximo: page.next,
      }
    })

    app.get(documento.url, { config: config(documento.escopo), schema: documento.schema }, async () => document)
  }
}
