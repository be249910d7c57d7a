// /api/contas-cobranca (issue 33): the customer's collection accounts, added, listed, read and changed with the
// scope `cobranca`, confirmed by a second person with `aprovacao`. Changes go through mutationRoute (Idempotency-Key
// accepted, audited, atomic); another customer's id is not found. What each bank needs of an account is the bank's
// rules' (boleto/bancos.ts, REGRAS[banco].conferir()), each reason a 422 item at its field.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '../../../platform/db/database.ts'
import type { Changes } from '../../../platform/db/schema.ts'
import { problem } from '../../../platform/http/problem.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError, type ValidationItem } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { nameProblem } from '../../../platform/lib/chosen-name.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { REGRAS, type Banco, type Beneficiario } from '../boleto/bancos.ts'
import { ACCOUNT_ROUTES, type ContaCobrancaInT, type ContaCobrancaPatchT } from './definitions.ts'
import {
  changeAccount, confirmAccount, createAccount, getAccount, listAccounts, type CollectionAccount, type CollectionAccountChange,
} from './store.ts'
import { accountView } from './views.ts'

export type AccountRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

const NOT_FOUND = problem('nao_encontrado')
/** A change's transaction, in single queries (DB_TIMEOUT_MS): the key, the locked read, the write, the read back, the audit row, the answer. */
const TIMEOUT_FACTOR = 8

type ListQuery = { limite?: string, antes?: string, banco?: Banco, ativa?: 'true' | 'false' }

export function accountRoutes(deps: AccountRoutesDeps) {
  const { db } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock: deps.clock, dbTimeoutMs: deps.dbTimeoutMs }
  const { criar, listar, ler, alterar, confirmar } = ACCOUNT_ROUTES
  const config = { rateLimit: limit, credencial: { escopo: criar.escopo } }

  return async function (app: FastifyInstance) {
    mutationRoute<{ Body: ContaCobrancaInT }, ActionContext>(app, mutation, {
      method: criar.method, url: criar.url, idempotency: 'accepted', config, schema: criar.schema, caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const b = req.body
        const banco = b.banco as Banco
        const account = {
          banco, agencia: b.agencia, conta: b.conta, contaDigito: b.conta_digito, carteira: b.carteira, convenio: b.convenio ?? null,
          layoutCnab: (b.layout_cnab ?? '240') as '240' | '400', proximoNossoNumero: b.proximo_nosso_numero ?? 1,
        }
        const items = [...nameItems(b.nome), ...bankItems(account), ...layoutItems(banco, account.layoutCnab),
          ...nossoNumeroItems(banco, account.proximoNossoNumero)]
        if (items.length) throw new RequestValidationError(items)
        const made = await createAccount(tx, {
          ...account, clienteId: req.credential!.clienteId, idExterno: b.id_externo ?? null, nome: b.nome.trim(), agenciaDigito: b.agencia_digito ?? null,
          transporte: (b.transporte ?? 'cnab') as 'cnab' | 'api', chavePix: b.chave_pix ?? null, proximaRemessa: b.proxima_remessa ?? 1,
        }, { usuarioId: req.credential!.usuarioId, now: action.now })
        return { answer: jsonAnswer(201, accountView(made)), audit: { acao: 'conta_cobranca.criada', alvoId: made.id } }
      },
    })

    app.get(listar.url, { config, schema: listar.schema }, async (request) => {
      const q = (request as FastifyRequest<{ Querystring: ListQuery }>).query
      const page = { limit: Number(q.limite ?? 50), ...(q.antes ? { before: Number(q.antes) } : {}) }
      const filter = { ...(q.banco ? { banco: q.banco } : {}), ...(q.ativa ? { ativa: q.ativa === 'true' } : {}) }
      const found = await withTenant(db, request.credential!.clienteId, (tx) => listAccounts(tx, filter, page))
      return { itens: found.items.map(accountView), proximo: found.next }
    })

    app.get(ler.url, { config, schema: ler.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, (tx) => getAccount(tx, id)) : undefined
      if (!found) throw NOT_FOUND
      return accountView(found)
    })

    mutationRoute<{ Params: { id: string }, Body: ContaCobrancaPatchT }, ActionContext>(app, mutation, {
      method: alterar.method, url: alterar.url, idempotency: 'accepted', config, schema: alterar.schema, caller: byCredential,
      timeoutFactor: TIMEOUT_FACTOR,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        // Locked: the change is checked against this read (a sequence only goes up from what it is now).
        const current = isUuid(id) ? await getAccount(tx, id, true) : undefined
        if (!current) return { answer: problemAnswer(NOT_FOUND) }
        const { change, moved, unconfirm } = accountChange(current, req.body)
        const changed = (await changeAccount(tx, current, change, { moved, unconfirm }, { usuarioId: req.credential!.usuarioId, now: action.now }))!
        return {
          answer: jsonAnswer(200, accountView(changed)),
          audit: { acao: 'conta_cobranca.alterada', alvoId: id, alteracoes: changes(current, changed) },
        }
      },
    })

    mutationRoute<{ Params: { id: string } }, ActionContext>(app, mutation, {
      method: confirmar.method, url: confirmar.url, idempotency: 'accepted', caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      config: { rateLimit: limit, credencial: { escopo: confirmar.escopo } }, schema: confirmar.schema,
      work: async ({ tx, req, action }) => {
        const id = req.params.id
        const done = isUuid(id) ? await confirmAccount(tx, id, { usuarioId: req.credential!.usuarioId, now: action.now }) : undefined
        if (!done) return { answer: problemAnswer(NOT_FOUND) }
        const answer = jsonAnswer(200, accountView(done.account))
        // Confirmed already: answered as it is, and nothing changed to audit.
        if (!done.changed) return { answer }
        const confirmed = { banco: done.account.banco, agencia: done.account.agencia, conta: done.account.conta, carteira: done.account.carteira,
          convenio: done.account.convenio, chave_pix: done.account.chavePix, transporte: done.account.transporte }
        const alteracoes = { conta_cobranca_confirmada: { antes: null, depois: confirmed } }
        return { answer, audit: { acao: 'conta_cobranca.confirmada', alvoId: id, alteracoes } }
      },
    })
  }
}

const CONTROL = 'Value error, control, line-break and bidi characters are not allowed'

function nameItems(nome: string | undefined): ValidationItem[] {
  if (nome === undefined) return []
  const why = nameProblem(nome.trim(), 120)
  if (why === 'controle') return [{ type: 'value_error', loc: ['body', 'nome'], msg: CONTROL, input: nome }]
  if (why === 'vazio' || nome.trim().length < 2) {
    return [{ type: 'string_too_short', loc: ['body', 'nome'], msg: 'String should have at least 2 characters', input: nome, ctx: { min_length: 2 } }]
  }
  return []
}

/** The body's fields by the bank rules' names. */
const FIELD: Record<keyof Beneficiario, string> = {
  agencia: 'agencia', conta: 'conta', contaDigito: 'conta_digito', carteira: 'carteira', convenio: 'convenio',
}

/** What the bank needs of the account and it lacks, each at its field (REGRAS[banco].conferir()). */
function bankItems(a: { banco: Banco, agencia: string, conta: string, contaDigito: string, carteira: string, convenio: string | null }): ValidationItem[] {
  const lacks = REGRAS[a.banco].conferir({
    agencia: a.agencia, conta: a.conta, contaDigito: a.contaDigito, carteira: a.carteira, ...(a.convenio !== null ? { convenio: a.convenio } : {}),
  })
  const given: Record<keyof Beneficiario, string | null> = {
    agencia: a.agencia, conta: a.conta, contaDigito: a.contaDigito, carteira: a.carteira, convenio: a.convenio,
  }
  return (Object.keys(FIELD) as (keyof Beneficiario)[]).filter((k) => lacks[k] !== undefined).map((k) => ({
    type: given[k] === null ? 'missing' : 'value_error', loc: ['body', FIELD[k]], msg: `Value error, ${lacks[k]}`, input: given[k],
  }))
}

function layoutItems(banco: Banco, layout: '240' | '400'): ValidationItem[] {
  if (layout === '240' || banco === '237' || banco === '341') return []
  return [{
    type: 'value_error', loc: ['body', 'layout_cnab'], input: layout,
    msg: `Value error, o ${REGRAS[banco].nome} não aceita mais o CNAB 400: use o 240 (o 400 só no Bradesco e no Itaú)`,
  }]
}

function nossoNumeroItems(banco: Banco, next: number): ValidationItem[] {
  const digits = REGRAS[banco].digitosDoNossoNumero
  if (next < 10 ** digits) return []
  return [{
    type: 'less_than_equal', loc: ['body', 'proximo_nosso_numero'], input: next, ctx: { le: 10 ** digits - 1 },
    msg: `Input should be less than or equal to ${10 ** digits - 1} (o nosso número do ${REGRAS[banco].nome} tem ${digits} dígitos de sequência)`,
  }]
}

const UPWARD = 'Value error, só pode aumentar: números já usados não voltam'

/**
 * The change a PATCH body asks for, checked against the account as it is: a new convênio by the bank's rules, CNAB 400
 * only where the bank takes it, the sequences never lower. A convênio, PIX key or transport that changes takes the
 * confirmation away: where the sacados' money goes is confirmed again, by a second person.
 */
function accountChange(current: CollectionAccount, b: ContaCobrancaPatchT): { change: CollectionAccountChange, moved: boolean, unconfirm: boolean } {
  const items: ValidationItem[] = [...nameItems(b.nome)]
  if (b.convenio !== undefined) {
    const convenio = bankItems({ ...current, convenio: b.convenio }).filter((i) => i.loc[1] === 'convenio')
    items.push(...convenio)
  }
  if (b.layout_cnab !== undefined) items.push(...layoutItems(current.banco, b.layout_cnab as '240' | '400'))
  if (b.proximo_nosso_numero !== undefined) {
    if (b.proximo_nosso_numero < current.proximoNossoNumero) {
      items.push({ type: 'value_error', loc: ['body', 'proximo_nosso_numero'], msg: UPWARD, input: b.proximo_nosso_numero,
        ctx: { atual: current.proximoNossoNumero } })
    }
    items.push(...nossoNumeroItems(current.banco, b.proximo_nosso_numero).map((i) => ({ ...i, loc: ['body', 'proximo_nosso_numero'] })))
  }
  if (b.proxima_remessa !== undefined && b.proxima_remessa < current.proximaRemessa) {
    items.push({ type: 'value_error', loc: ['body', 'proxima_remessa'], msg: UPWARD, input: b.proxima_remessa, ctx: { atual: current.proximaRemessa } })
  }
  if (items.length) throw new RequestValidationError(items)
  const change: CollectionAccountChange = {
    ...(b.nome !== undefined ? { nome: b.nome.trim() } : {}),
    ...(b.convenio !== undefined ? { convenio: b.convenio } : {}),
    ...(b.layout_cnab !== undefined ? { layoutCnab: b.layout_cnab as '240' | '400' } : {}),
    ...(b.transporte !== undefined ? { transporte: b.transporte as 'cnab' | 'api' } : {}),
    ...(b.chave_pix !== undefined ? { chavePix: b.chave_pix } : {}),
    ...(b.ativa !== undefined ? { ativa: b.ativa } : {}),
    ...(b.proximo_nosso_numero !== undefined ? { proximoNossoNumero: b.proximo_nosso_numero } : {}),
    ...(b.proxima_remessa !== undefined ? { proximaRemessa: b.proxima_remessa } : {}),
  }
  const moved = (change.convenio !== undefined && change.convenio !== current.convenio)
    || (change.chavePix !== undefined && change.chavePix !== current.chavePix)
    || (change.transporte !== undefined && change.transporte !== current.transporte)
  return { change, moved, unconfirm: moved && current.confirmadaEm !== null }
}

/** What a change changed, each field before and after, as the API names them. */
function changes(before: CollectionAccount, after: CollectionAccount): Changes {
  const shown = (c: CollectionAccount) => {
    const { atualizada_em: _at, confirmada_por: _by, incluida_por: _added, ...view } = accountView(c)
    return view as Record<string, unknown>
  }
  const [a, b] = [shown(before), shown(after)]
  return Object.fromEntries(Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => [k, { antes: a[k], depois: b[k] }]))
}
