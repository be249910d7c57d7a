// /api/cnab/remessas (issue 33): the CNAB remessa of a collection account, made [$] in one transaction that first
// locks the account (so two requests at once take one NSA each and never put one charge or instruction in both
// files; the unique items are the database's backstop), read as a summary, and downloaded as the file itself.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '../../../platform/db/database.ts'
import { pageOf } from '../../../platform/http/api-schemas.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { getAccount } from '../accounts/store.ts'
import { AccountUnconfirmedError } from '../charges/errors.ts'
import { composeRemessa, contaRemessa, nomeDoArquivo, sha256 } from './compose.ts'
import { REMESSA_ROUTES } from './definitions.ts'
import { AccountByApiError, CustomerWithoutCnpjError, EmptyRemessaError } from './errors.ts'
import { customerOf, getRemessa, itemsOf, listRemessas, pendingCharges, pendingInstructions, storeRemessa, takeNsa } from './store.ts'
import { remessaSummaryView, remessaView } from './views.ts'

export type RemessaRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

const NOT_FOUND = problem('nao_encontrado')
/** The key, the account locked, the customer, two reads of what waits, the NSA, the file and its items, the audit. */
const TIMEOUT_FACTOR = 16
/** The most lines of charges and of instructions one file takes; the rest wait for the next file. */
const MAX_ITENS = 5000

let timeFormat: Intl.DateTimeFormat | undefined
/** HHMMSS in Brasília: the header's time of generation. */
function brasiliaHora(d: Date): string {
  timeFormat ??= new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
  return timeFormat.format(d).replaceAll(':', '')
}

export function remessaRoutes(deps: RemessaRoutesDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { criar, listar, ler, arquivo } = REMESSA_ROUTES
  const config = { rateLimit: limit, credencial: { escopo: criar.escopo } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: { conta_cobranca_id: string } }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'required', config, schema: criar.schema, caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const clienteId = req.credential!.clienteId
        const account = await getAccount(tx, req.body.conta_cobranca_id, true)
        if (!account) return { answer: problemAnswer(NOT_FOUND) }
        if (account.transporte === 'api') throw new AccountByApiError()
        if (account.confirmadaEm === null) throw new AccountUnconfirmedError()
        const cliente = await customerOf(tx, clienteId)
        if (!/^[0-9]{11,14}$/.test(cliente.documento ?? '')) throw new CustomerWithoutCnpjError()
        const charges = await pendingCharges(tx, account.id, MAX_ITENS)
        const instructions = await pendingInstructions(tx, account.id, MAX_ITENS)
        const conta = contaRemessa(account, { nome: cliente.nome, documento: cliente.documento! })
        const dia = brasiliaDay(action.now)
        // Composed with the NSA the account holds now; taken only once there is a file (a refusal takes no number).
        const made = composeRemessa(conta, account.proximaRemessa, { dia, hora: brasiliaHora(action.now) }, charges, instructions)
        if (!('texto' in made)) throw new EmptyRemessaError(made.fora)
        const nsa = await takeNsa(tx, account.id)
        const { remessa } = await storeRemessa(tx, {
          clienteId, contaCobrancaId: account.id, nsa, layout: account.layoutCnab, nomeArquivo: nomeDoArquivo(account.banco, dia, nsa),
          conteudo: made.texto, sha256: sha256(made.texto), registros: made.registros,
          cobrancas: made.carried.filter((c) => c.cobrancaId).length, instrucoes: made.carried.filter((c) => c.instrucaoId).length,
          valorCentavos: Number(made.valorCentavos), criadoEm: action.now,
        }, made.carried)
        const itens = await itemsOf(tx, remessa.id)
        return { answer: jsonAnswer(201, remessaView(remessa, itens, made.fora)), audit: { acao: 'remessa.gerada', alvoId: remessa.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { limite?: string, antes?: string, conta_cobranca_id?: string } }>).query
      const found = await withTenant(db, request.credential!.clienteId,
        (tx) => listRemessas(tx, q.conta_cobranca_id ? { contaCobrancaId: q.conta_cobranca_id } : {}, pageOf(q)))
      return { itens: found.items.map(remessaSummaryView), proximo: found.next }
    })

    const read = (request: FastifyRequest) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      return isUuid(id) ? withTenant(db, request.credential!.clienteId, async (tx) => {
        const remessa = await getRemessa(tx, id)
        return remessa && { remessa, itens: await itemsOf(tx, id) }
      }) : undefined
    }

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const found = await read(request)
      if (!found) throw NOT_FOUND
      return remessaView(found.remessa, found.itens)
    })

    app.get(arquivo.url, { config, schema: arquivo.schema }, async (request, reply) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getRemessa(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      // The text is ASCII (the writers fold accents away): its ISO-8859-1 bytes are the same, and hash as stored.
      return reply.type('text/plain; charset=iso-8859-1').header('content-disposition', `attachment; filename="${found.nomeArquivo}"`)
        .send(Buffer.from(found.conteudo, 'latin1'))
    })
  }
}
