// /api/cnab/retornos (issue 33): the bank's retorno file as the body (text/plain, or any type: it is the bank's
// bytes, Latin-1), for one of the customer's collection accounts. The upload checks the file whole and stores its
// lines in one transaction (or nothing, naming the line that broke it), with its audit row; then the lines are
// applied: at once for a small file (201, applied), in the background for a large one (202; the retornos job goes on
// after a stop). The same file sent again for the account answers what became of the first (200).
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import type { Database } from '../../../platform/db/database.ts'
import { pageFrom, pageOf } from '../../../platform/http/api-schemas.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../../platform/http/csv-answer.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { errorFacts } from '../../../platform/lib/log-safety.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import { appendAudit } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { getAccount } from '../accounts/store.ts'
import { applyRetorno, type ApplyDeps } from './apply.ts'
import { RETORNO_ROUTES } from './definitions.ts'
import { retornoLinesCsv } from './exports.ts'
import { getRetorno, listLines, listRetornos, retornoBySha } from './store.ts'
import { spool, type Spooled } from './spool.ts'
import { storeRetorno } from './upload.ts'
import { linhaView, retornoView } from './views.ts'

export type RetornoRoutesDeps = ApplyDeps & {
  db: Database, clock: Clock, budget: Budget, log: { error(facts: object, message: string): void },
  /** The uploads' own budget (rateLimits.arquivos): a file stores up to 100,000 rows. */
  uploads: Budget
}

/** 100,000 títulos of a 240 (a T and a U segment each) in its three lotes, with their headers and trailers, CR LF: larger than a 400's. */
export const RETORNO_MAX_BYTES = (2 * 100_000 + 2 + 2 * 3) * 242
/** A file of up to this many títulos is applied before the answer; a larger one after it. */
export const APLICAR_NA_HORA = 1000

const NOT_FOUND = problem('nao_encontrado')

type Upload = { Querystring: { conta_cobranca_id: string } }

export function retornoRoutes(deps: RetornoRoutesDeps) {
  const { db, clock } = deps
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: RETORNO_ROUTES.enviar.escopo } }
  const { enviar, listar, ler, linhas } = RETORNO_ROUTES
  const inBackground = (clienteId: string, id: string) => {
    void applyRetorno(deps, clienteId, id, () => clock.now()).catch((err: unknown) => {
      // The retornos job goes on from the first pending line: nothing is lost, only later.
      deps.log.error({ ...errorFacts(err), retorno: id }, 'applying a retorno stopped; the retornos job will go on with it')
    })
  }

  /** The spooled file checked and stored as pending lines in one transaction, with its audit row; or the same file sent before. */
  const storeUpload = async (req: FastifyRequest<Upload>, file: Spooled) => {
    if (file.bytes === 0) throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required: the retorno file', input: null }])
    const clienteId = req.credential!.clienteId
    const now = clock.now()
    return withTenant(db, clienteId, async (tx) => {
      const conta = await getAccount(tx, req.query.conta_cobranca_id)
      if (!conta) throw NOT_FOUND
      // Two uploads of one file for one account: the second waits for the first, then finds it.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('retorno:' || ${conta.id}), hashtext(${file.sha256}))`)
      const before = await retornoBySha(tx, conta.id, file.sha256)
      if (before) return { before }
      const made = await storeRetorno(tx, conta, clienteId, file, now)
      await appendAudit(tx, clienteId, byCredential.action(req, now), 'retorno.enviado', { alvoId: made.id })
      return { made }
    })
  }

  return async function (app: FastifyInstance) {
    // Its own context: only here is a body the bank's bytes, of any type, up to RETORNO_MAX_BYTES (413 past it).
    await app.register(async (scoped) => {
      scoped.removeAllContentTypeParsers()
      // The body as it arrives (the request stream itself): spooled to disk by the handler, bounded there.
      scoped.addContentTypeParser('*', (_req, payload, done) => done(null, payload))
      scoped.post(enviar.url, { config: { ...config, rateLimit: rateLimitFor(deps.uploads) }, schema: enviar.schema }, async (request, reply) => {
        const req = request as FastifyRequest<Upload>
        // A request without a body reaches no parser: an empty file.
        const file = await spool(req.body instanceof Readable ? req.body : Readable.from([]), RETORNO_MAX_BYTES)
        const clienteId = req.credential!.clienteId
        const stored = await storeUpload(req, file).finally(() => file.dispose())
        if (stored.before) return reply.code(200).send(retornoView(stored.before))
        const { id, titulos } = stored.made!
        if (titulos <= APLICAR_NA_HORA) await applyRetorno(deps, clienteId, id, () => clock.now())
        else inBackground(clienteId, id)
        const current = (await withTenant(db, clienteId, (tx) => getRetorno(tx, id)))!
        return reply.code(current.estado === 'aplicado' ? 201 : 202).header('location', `${enviar.url}/${id}`).send(retornoView(current))
      })
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: { limite?: string, antes?: string, conta_cobranca_id?: string, estado?: string } }>).query
      const page = pageOf(q)
      const rows = await withTenant(db, request.credential!.clienteId, (tx) => listRetornos(tx, {
        ...(q.conta_cobranca_id ? { contaCobrancaId: q.conta_cobranca_id } : {}), ...(q.estado ? { estado: q.estado } : {}),
      }, page))
      const found = pageFrom(rows, page.limit)
      return { itens: found.items.map(retornoView), proximo: found.next }
    })

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getRetorno(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return retornoView(found)
    })

    app.get(linhas.url, { config, schema: linhas.schema }, async (request, reply) => {
      type Lines = { Params: { id: string }, Querystring: { resultado?: string, depois?: string, limite?: string } }
      const { params: { id }, query: q } = request as FastifyRequest<Lines>
      const clienteId = request.credential!.clienteId
      if (wantsCsv(request)) {
        const found = isUuid(id) ? await withTenant(db, clienteId, (tx) => getRetorno(tx, id)) : undefined
        if (!found) throw NOT_FOUND
        const name = csvFilename(`retorno-${found.nsa.replace(/\D/g, '') || found.id.slice(0, 8)}-linhas`, brasiliaDay(clock.now()))
        return sendCsv(reply, retornoLinesCsv(db, clienteId, id, q.resultado, name), clienteId)
      }
      const limit = Number(q.limite ?? 100)
      const found = isUuid(id) ? await withTenant(db, clienteId, async (tx) => {
        if (!await getRetorno(tx, id)) return undefined
        return listLines(tx, id, { ...(q.resultado ? { resultado: q.resultado } : {}), ...(q.depois ? { after: Number(q.depois) } : {}), limit: limit + 1 })
      }) : undefined
      if (!found) throw NOT_FOUND
      const more = found.length > limit
      const items = more ? found.slice(0, limit) : found
      return { itens: items.map(linhaView), proximo: more ? items[items.length - 1]!.linha : null }
    })
  }
}
