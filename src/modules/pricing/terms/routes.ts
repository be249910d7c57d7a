// /api/produtos (produto.md §2.2): the customer's pricing terms, created, listed, read, and versioned; scope
// `cadastro`. Changes go through mutationRoute (Idempotency-Key accepted, audited, atomic).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../../platform/lib/clock.ts'
import { sql } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { nameProblem } from '../../../platform/lib/chosen-name.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential, permits, RoleError, type Papel } from '../../credentials/index.ts'
import { TIPOS_TITULO } from '../engine.ts'
import { TERMS_ROUTES, type ProdutoInT } from './definitions.ts'
import { addVersion, createProduct, getProduct, listProducts, type ProductTerms } from './store.ts'
import { productView } from './views.ts'

type Deps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }
type TermsBody = Omit<ProdutoInT, 'id_externo' | 'nome'>

const NOT_FOUND = problem('nao_encontrado')

export function termsRoutes(deps: Deps) {
  const config = { rateLimit: rateLimitFor(deps.budget), credencial: { escopo: 'cadastro' } }
  const mutation = { idempotency: deps.idempotency, clock: deps.clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { criar, listar, ler, versao } = TERMS_ROUTES

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: ProdutoInT }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'accepted', config, schema: criar.schema, caller: byCredential, timeoutFactor: 6,
      work: async ({ tx, req, action }) => {
        const b = req.body
        const terms = checkedTerms(b, b.nome)
        const made = await createProduct(tx, { clienteId: req.credential!.clienteId, idExterno: b.id_externo ?? null, nome: b.nome.trim(), terms }, action.now)
        return { answer: jsonAnswer(201, productView(made)), audit: { acao: 'produto.criado', alvoId: made.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const req = request as FastifyRequest<{ Querystring: { limite?: string, antes?: string } }>
      const page = { limit: Number(req.query.limite ?? 50), ...(req.query.antes ? { before: Number(req.query.antes) } : {}) }
      const found = await withTenant(deps.db, req.credential!.clienteId, (tx) => listProducts(tx, page))
      return { itens: found.items.map(productView), proximo: found.next }
    })

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const req = request as FastifyRequest<{ Params: { id: string } }>
      const id = req.params.id
      const found = isUuid(id) ? await withTenant(deps.db, req.credential!.clienteId, (tx) => getProduct(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return productView(found)
    })

    mutationRoute<{ Params: { id: string }, Body: TermsBody }, ActionContext>(app, mutation, {
      method: versao.method, url: versao.url, idempotency: 'accepted', config, schema: versao.schema, caller: byCredential, timeoutFactor: 6,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        // A rule the new version leaves unsaid is the version before's: a rate change never drops a product's checks.
        const before = isUuid(id) ? await latestRules(tx, id) : undefined
        const terms = checkedTerms(req.body, undefined, before)
        refuseRelaxing(req.credential!, before, terms)
        const made = isUuid(id) ? await addVersion(tx, id, terms, action.now) : undefined
        if (!made) return { answer: problemAnswer(NOT_FOUND) }
        return { answer: jsonAnswer(201, productView(made)), audit: { acao: 'produto.versao_criada', alvoId: id } }
      },
    })
  }
}

/** The terms as kept (every type's float, 0 when not given), or the 422 of the rules the schema cannot say. */
type Rules = Pick<ProductTerms, 'coobrigacao' | 'exigeConfirmacao' | 'exigeRegistro'>

/**
 * Turning off a check the product asks before acceptance (confirmation with the sacado, a clean registry query) is an
 * approver's decision, as waiving one título's is: an operador's new version without it would let through what the
 * approver alone may waive.
 */
function refuseRelaxing(c: { papel: Papel | null, usuarioId: string | null, escopos: readonly string[] }, before: Rules | undefined, terms: Rules): void {
  const relaxes = (before?.exigeConfirmacao && !terms.exigeConfirmacao) || (before?.exigeRegistro && !terms.exigeRegistro)
  if (!relaxes) return
  const approver = c.escopos.includes('aprovacao') && (c.papel === null ? c.usuarioId === null : permits(c.papel, 'aprovacao', true))
  if (!approver) throw new RoleError('turning off a check the product asks before acceptance is an approver\'s decision (scope aprovacao)')
}

/** The rules of the product's latest version (undefined: no such product of the customer). */
async function latestRules(tx: Orm, produtoId: string): Promise<Rules | undefined> {
  // The product locked first, as the new version takes it: a version made meanwhile (a check turned on) is read, never
  // built on the rules before it.
  await tx.execute(sql`SELECT id FROM produtos WHERE id = ${produtoId}::uuid FOR UPDATE`)
  const [r] = await queryRows<{ coobrigacao: boolean, exige_confirmacao: boolean, exige_registro: boolean }>(tx, sql`SELECT coobrigacao,
    exige_confirmacao, exige_registro FROM produto_versoes WHERE produto_id = ${produtoId}::uuid ORDER BY versao DESC LIMIT 1`)
  return r && { coobrigacao: r.coobrigacao, exigeConfirmacao: r.exige_confirmacao, exigeRegistro: r.exige_registro }
}

function checkedTerms(b: TermsBody, nome?: string, before?: Rules): ProductTerms {
  const items = []
  if (nome !== undefined && nameProblem(nome, 200) === 'controle') {
    items.push({ type: 'value_error', loc: ['body', 'nome'], msg: 'Value error, control, line-break and bidi characters are not allowed', input: nome })
  }
  const motivo = b.motivo_isencao ?? null
  const reason = ['body', 'motivo_isencao']
  if (b.iof === 'isento' && !motivo) items.push({ type: 'missing', loc: reason, msg: 'Value error, an exempt product needs its reason', input: null })
  if (b.iof !== 'isento' && motivo) items.push({ type: 'value_error', loc: reason, msg: 'Value error, only iof isento takes a reason', input: motivo })
  if (motivo && nameProblem(motivo, 500) === 'controle') {
    items.push({ type: 'value_error', loc: reason, msg: 'Value error, control, line-break and bidi characters are not allowed', input: motivo })
  }
  if (items.length) throw new RequestValidationError(items)
  const given = (b.dias_float ?? {}) as Record<string, number | undefined>
  return {
    base: b.base as ProductTerms['base'], taxaMensal: b.taxa_mensal, taxaAdValorem: b.taxa_ad_valorem,
    tarifaPorTituloCentavos: BigInt(b.tarifa_por_titulo_centavos), tacCentavos: BigInt(b.tac_centavos),
    diasFloat: Object.fromEntries(TIPOS_TITULO.map((t) => [t, given[t] ?? 0])), iof: b.iof as ProductTerms['iof'], motivoIsencao: motivo,
    coobrigacao: b.coobrigacao ?? before?.coobrigacao ?? false,
    exigeConfirmacao: b.exige_confirmacao ?? before?.exigeConfirmacao ?? false,
    exigeRegistro: b.exige_registro ?? before?.exigeRegistro ?? false,
  }
}
