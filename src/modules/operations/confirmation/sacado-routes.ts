// GET and POST /confirmacao/{token}: the sacado's page, outside any account. The link is read and answered through the
// database's own functions (migration 0049), which see that link's título alone and only while it is open; every
// other case (unknown, answered, superseded, expired, not even the shape of a token) gets the same 404 page.
// Rate-limited per address; a post from another site is refused (the token in the URL is the only credential).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import type { Database } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { field, formFields, fromThisSite, messagePage, type Page } from '../../account/index.ts'
import { answeredPage, confirmationPage, INVALID_LINK, MOTIVO_MAX, type AnswerErrors, type LinkTitle } from './sacado-page.ts'
import { hashOf } from './token.ts'
import { withoutUnsafe } from '../../../platform/lib/chosen-name.ts'

export const SACADO_PATH = '/confirmacao/:token'

export type SacadoRoutesDeps = { db: Database, clock: Clock, budget: Budget, publicUrl: string | undefined }

export function sacadoRoutes(deps: SacadoRoutesDeps) {
  const { db } = deps
  const config = { rateLimit: rateLimitFor(deps.budget) }

  const send = (app: FastifyInstance, reply: FastifyReply, status: number, page: Page) => reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    // The token is in the path: no request of the page (its own assets either, which a proxy's log would keep) carries it
    // as a Referer; `strict-origin` still sends the form's Origin, which the post's check needs (`no-referrer` would not).
    .header('referrer-policy', 'strict-origin')
    .send(app.siteLayout({ ...page, path: '/confirmacao', private: true }))

  const read = async (hash: Buffer): Promise<LinkTitle | undefined> => {
    const [row] = await queryRows<LinkTitle>(db.orm, sql`SELECT tipo, numero, emissao::text AS emissao, vencimento::text AS vencimento,
      valor_face_centavos::text AS valor_face_centavos, cedente_razao_social, cedente_documento, sacado_razao_social, cessionario_razao_social,
      cessionario_documento, expira_em, adquirido FROM confirmacao_por_token(${hash}, ${deps.clock.now().toISOString()}::timestamptz)`)
    return row && { ...row, expira_em: new Date(row.expira_em) }
  }

  return async function (app: FastifyInstance) {
    app.get(SACADO_PATH, { config }, async (request, reply) => {
      const token = (request as FastifyRequest<{ Params: { token: string } }>).params.token
      const hash = hashOf(token)
      const found = hash && await read(hash)
      if (!found) return send(app, reply, 404, INVALID_LINK)
      return send(app, reply, 200, confirmationPage(found, `/confirmacao/${token}`))
    })

    app.post(SACADO_PATH, { config }, async (request, reply) => {
      const token = (request as FastifyRequest<{ Params: { token: string } }>).params.token
      const fields = formFields(request.body)
      if (!fields || !fromThisSite(request, deps.publicUrl)) {
        return send(app, reply, 403,
          messagePage('Resposta não aceita', 'A resposta precisa ser enviada pela própria página de confirmação: abra o link de novo.'))
      }
      const hash = hashOf(token)
      const found = hash && await read(hash)
      if (!found) return send(app, reply, 404, INVALID_LINK)
      const resposta = field(fields, 'resposta', 20)
      // Its lines as typed, each without a character that acts on a screen (the table's CHECK allows line feeds alone).
      const motivo = field(fields, 'motivo', MOTIVO_MAX + 1).split(/\r\n?|\n/).map(withoutUnsafe).join('\n').trim()
      const errors: AnswerErrors = {}
      if (resposta !== 'confirmo' && resposta !== 'contesto') errors.resposta = 'Escolha se confirma ou contesta o título.'
      if (resposta === 'contesto' && !motivo) errors.motivo = 'Informe o motivo da contestação.'
      if (motivo.length > MOTIVO_MAX) errors.motivo = `O motivo pode ter até ${MOTIVO_MAX} caracteres.`
      if (errors.resposta || errors.motivo) {
        return send(app, reply, 422, confirmationPage(found, `/confirmacao/${token}`, { resposta, motivo }, errors))
      }
      const result = resposta === 'confirmo' ? 'confirmado' : 'contestado'
      const agent = withoutUnsafe(String(request.headers['user-agent'] ?? '')).slice(0, 300)
      const [done] = await queryRows<{ ok: boolean }>(db.orm, sql`SELECT confirmacao_responde(${hash!}, ${result}, ${motivo || null}, ${request.ip}::inet,
        ${agent || null}, ${deps.clock.now().toISOString()}::timestamptz) AS ok`)
      // Answered by another tab between the read and this: the link is used, as an unknown one is.
      if (!done?.ok) return send(app, reply, 404, INVALID_LINK)
      return send(app, reply, 200, answeredPage(result))
    })
  }
}
