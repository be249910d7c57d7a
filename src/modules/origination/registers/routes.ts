// /api/cedentes and /api/sacados (produto.md §2.1): create, list, read, change; scope `cadastro`, and a person's role
// decides whether they may change (the credential guard). Changes go through mutationRoute: an Idempotency-Key is
// accepted, and the change, its audit row and its stored answer commit together. Another customer's id is not found.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import { csvFilename, sendCsv, wantsCsv } from '../../../platform/http/csv-answer.ts'
import { listBody, listPageOf, orderAsked, searchOf, type ListParams } from '../../../platform/http/list-query.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { RequestValidationError, type ValidationItem } from '../../../platform/http/validation-errors.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import type { Idempotency } from '../../../platform/idempotency/run.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { Changes } from '../../../platform/db/schema.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential } from '../../credentials/index.ts'
import { checkContas, checkDocumento, checkExemption, checkNames, checkProfileParty, checkSimplesDeclaration } from './checks.ts'
import { ACCOUNT_CONFIRMATION_ROUTE, partyRoutes } from './definitions.ts'
import type { DeclaracaoSimples, MotivoIsencao, PerfilIof } from './iof-profile.ts'
import type { CedenteInT } from './schemas.ts'
import {
  changeParty, confirmConta, createParty, ENDERECO_CAMPOS, getParty, type CedenteFields, type Endereco, type Kind, type NewParty, type PartyChange,
  type PartyFields, type Party,
} from './store.ts'
import { contaView, partyView } from './views.ts'
import { partiesCsv, partyList, partySort, type PartyListFilter } from './lists.ts'

export type RegisterRoutesDeps = { db: Database, clock: Clock, idempotency: Idempotency, dbTimeoutMs: number, budget: Budget }

const NOT_FOUND = problem('nao_encontrado')
/** A change's transaction, in single queries (DB_TIMEOUT_MS): the key, the row, the accounts, the audit row, the stored answer. */
const TIMEOUT_FACTOR = 8

type Body = Partial<CedenteInT> & { estado?: 'ativo' | 'bloqueado' }
type ListQuery = ListParams & { documento?: string, estado?: 'ativo' | 'bloqueado', id_externo?: string }

export function registerRoutes(deps: RegisterRoutesDeps) {
  const { db, clock } = deps
  const limit = rateLimitFor(deps.budget)
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }

  return async function (app: FastifyInstance) {
    for (const kind of ['cedente', 'sacado'] as const) {
      const r = partyRoutes(kind)
      const config = { rateLimit: limit, credencial: { escopo: r.criar.escopo } }

      mutationRoute<{ Body: Body }, ActionContext>(app, mutation, {
        method: r.criar.method, url: r.criar.url, idempotency: 'accepted', config, schema: r.criar.schema, caller: byCredential,
        timeoutFactor: TIMEOUT_FACTOR,
        work: async ({ tx, req, action }) => {
          const party = newParty(kind, req.credential!.clienteId, req.body, brasiliaDay(action.now))
          const made = await createParty(tx, kind, party, action.now, req.credential!.usuarioId)
          return { answer: jsonAnswer(201, partyView(made)), audit: { acao: `${kind}.criado`, alvoId: made.id } }
        },
      })

      app.get(r.listar.url, { config, schema: r.listar.schema }, async (request, reply) => {
        const req = request as FastifyRequest<{ Querystring: ListQuery }>
        const q = req.query
        const page = listPageOf(q)
        const busca = searchOf(q)
        const filter: PartyListFilter = {
          ...(q.estado ? { estado: q.estado } : {}), ...(q.id_externo ? { idExterno: q.id_externo } : {}), ...(busca ? { busca } : {}),
        }
        if (q.documento !== undefined) {
          const doc = checkDocumento(q.documento, ['documento'])
          if ('loc' in doc) throw new RequestValidationError([{ ...doc, loc: ['querystring', 'documento'] }])
          filter.documento = doc.documento
        }
        const sort = partySort(kind, orderAsked(q))
        const clienteId = req.credential!.clienteId
        const filename = csvFilename(`${kind}s`, brasiliaDay(clock.now()))
        if (wantsCsv(request)) return sendCsv(reply, partiesCsv(db, clienteId, kind, filter, sort, filename), clienteId)
        const found = await withTenant(db, clienteId, (tx) => partyList(tx, kind, filter, sort, page))
        return listBody(found, page, q.ordem === undefined, (p) => p.seq, partyView)
      })

      app.get(r.ler.url, { config, schema: r.ler.schema }, async (request) => {
        const req = request as FastifyRequest<{ Params: { id: string } }>
        const id = req.params.id
        const found = isUuid(id) ? await withTenant(db, req.credential!.clienteId, (tx) => getParty(tx, kind, id)) : undefined
        if (!found) throw NOT_FOUND
        return partyView(found)
      })

      mutationRoute<{ Params: { id: string }, Body: Body }, ActionContext>(app, mutation, {
        method: r.alterar.method, url: r.alterar.url, idempotency: 'accepted', config, schema: r.alterar.schema, caller: byCredential,
        timeoutFactor: TIMEOUT_FACTOR,
        work: async ({ tx, req, action }) => {
          const id = req.params.id
          // Locked: the change is computed from this read (a profile and its reason or declaration go together).
          const current = isUuid(id) ? await getParty(tx, kind, id, true) : undefined
          if (!current) return { answer: problemAnswer(NOT_FOUND) }
          const change = partyChange(kind, current, req.body, brasiliaDay(action.now))
          const changed = await changeParty(tx, kind, id, change, action.now, req.credential!.usuarioId)
          return { answer: jsonAnswer(200, partyView(changed!)), audit: { acao: `${kind}.alterado`, alvoId: id, alteracoes: changes(current, changed!) } }
        },
      })
    }

    const confirmation = ACCOUNT_CONFIRMATION_ROUTE
    mutationRoute<{ Params: { id: string, conta_id: string } }, ActionContext>(app, mutation, {
      method: confirmation.method, url: confirmation.url, idempotency: 'accepted', caller: byCredential, timeoutFactor: TIMEOUT_FACTOR,
      config: { rateLimit: limit, credencial: { escopo: confirmation.escopo } }, schema: confirmation.schema,
      work: async ({ tx, req, action }) => {
        const { id, conta_id: contaId } = req.params
        const cedente = isUuid(id) && isUuid(contaId) ? await getParty(tx, 'cedente', id) : undefined
        const conta = cedente && await confirmConta(tx, id, contaId, { usuarioId: req.credential!.usuarioId, now: action.now })
        if (!conta) return { answer: problemAnswer(NOT_FOUND) }
        const confirmed = { id: conta.id, banco: conta.banco, agencia: conta.agencia, conta: conta.conta, digito: conta.digito }
        const alteracoes = { conta_bancaria_confirmada: { antes: null, depois: confirmed } }
        return { answer: jsonAnswer(200, contaView(conta)), audit: { acao: 'cedente.conta_confirmada', alvoId: id, alteracoes } }
      },
    })
  }
}

/** What a change changed, each field before and after, as the API names them (an account by what it is, not its id). */
function changes(before: Party, after: Party): Changes {
  const shown = (p: Party) => {
    const { atualizado_em: _at, exposicao_centavos: _exposure, ...view } = partyView(p)
    const contas = p.contas?.map((c) => ({ banco: c.banco, agencia: c.agencia, conta: c.conta, digito: c.digito, titular_documento: c.titularDocumento }))
    return contas ? { ...view, contas_bancarias: contas } : view
  }
  const [a, b] = [shown(before), shown(after)] as Record<string, unknown>[]
  return Object.fromEntries(Object.keys(b!).filter((k) => JSON.stringify(a![k]) !== JSON.stringify(b![k])).map((k) => [k, { antes: a![k], depois: b![k] }]))
}

/** A new register from its body, every rule checked at once (422 with each item); `today` is Brasília's. */
function newParty(kind: Kind, clienteId: string, b: Body, today: string): NewParty {
  const items: ValidationItem[] = []
  const doc = checkDocumento(b.documento!, ['documento'])
  if ('loc' in doc) items.push(doc)
  items.push(...checkNames({ razao_social: b.razao_social, nome_fantasia: b.nome_fantasia }, 200))
  const contas = kind === 'cedente' && !('loc' in doc) ? checkContas(b.contas_bancarias ?? [], doc.documento) : { kept: [], items: [] }
  const perfil = b.perfil_iof as PerfilIof
  const declaracao = b.declaracao_simples ?? null
  if (kind === 'cedente') {
    if (!('loc' in doc)) items.push(...checkProfileParty(perfil, doc.tipoPessoa))
    items.push(...checkExemption(perfil, b.motivo_isencao), ...checkSimplesDeclaration(perfil, declaracao, declaracao, today), ...contas.items)
  }
  if (items.length || 'loc' in doc) throw new RequestValidationError(items)
  return {
    nomeFantasia: null, email: null, telefone: null, municipioIbge: null, uf: null, limiteCentavos: null,
    ...(kind === 'sacado' ? { logradouro: null, numero: null, complemento: null, bairro: null, cep: null, cidade: null } : {}),
    ...partyFields(b), razaoSocial: b.razao_social!,
    clienteId, idExterno: b.id_externo ?? null, documento: doc.documento, tipoPessoa: doc.tipoPessoa,
    ...(kind === 'cedente'
      ? { perfilIof: perfil, motivoIsencao: (b.motivo_isencao ?? null) as MotivoIsencao | null, ...declarationFields(declaracao), contas: contas.kept }
      : {}),
  }
}

/** The declaration as its columns: the hash lower-case, as a SHA-256 is compared. */
const declarationFields = (d: DeclaracaoSimples | null): Pick<CedenteFields, 'simplesDeclaradoEm' | 'simplesDeclaracaoSha256'> =>
  ({ simplesDeclaradoEm: d?.data ?? null, simplesDeclaracaoSha256: d?.sha256.toLowerCase() ?? null })

/** The declaration a stored cedente has. */
const storedDeclaration = (p: Party): DeclaracaoSimples | null =>
  p.simplesDeclaradoEm ? { data: p.simplesDeclaradoEm, sha256: p.simplesDeclaracaoSha256! } : null

/**
 * The change a PATCH body asks for, checked against the register as it is (its document, which never changes, for
 * the profile; an exemption's reason; a Simples declaration; the accounts' holder). A profile changed away from
 * `isento` or `pj_simples` drops the reason or the declaration it no longer takes.
 */
function partyChange(kind: Kind, current: Party, b: Body, today: string): PartyChange {
  const items: ValidationItem[] = checkNames({ razao_social: b.razao_social, nome_fantasia: b.nome_fantasia }, 200)
  let contas: PartyChange['contas']
  if (kind === 'cedente') {
    const perfil = (b.perfil_iof ?? current.perfilIof!) as PerfilIof
    const motivo = b.motivo_isencao !== undefined ? b.motivo_isencao : perfil !== 'isento' ? null : current.motivoIsencao
    const before = storedDeclaration(current)
    const declaracao = b.declaracao_simples !== undefined ? b.declaracao_simples : perfil !== 'pj_simples' ? null : before
    items.push(...checkProfileParty(perfil, current.tipoPessoa), ...checkExemption(perfil, motivo),
      ...checkSimplesDeclaration(perfil, declaracao, b.declaracao_simples, today))
    if (b.contas_bancarias) {
      const checked = checkContas(b.contas_bancarias, current.documento)
      items.push(...checked.items)
      contas = checked.kept
    }
    if (items.length) throw new RequestValidationError(items)
    return {
      ...partyFields(b), ...(b.estado ? { estado: b.estado } : {}), ...(contas ? { contas } : {}),
      ...(b.perfil_iof !== undefined ? { perfilIof: perfil } : {}),
      ...(motivo !== current.motivoIsencao ? { motivoIsencao: (motivo ?? null) as MotivoIsencao | null } : {}),
      ...(declaracao !== before ? declarationFields(declaracao) : {}),
    }
  }
  if (items.length) throw new RequestValidationError(items)
  return { ...partyFields(b), ...(b.estado ? { estado: b.estado } : {}) }
}

/** The shared fields the body gives (a PATCH's only those present; null clears one). */
function partyFields(b: Body) {
  const out: Partial<Record<string, unknown>> = {}
  const map = {
    razao_social: 'razaoSocial', nome_fantasia: 'nomeFantasia', email: 'email', telefone: 'telefone', municipio_ibge: 'municipioIbge', uf: 'uf',
    ...Object.fromEntries(ENDERECO_CAMPOS.map((c) => [c, c])),
  } as Record<string, string>
  for (const [from, to] of Object.entries(map)) if ((b as Record<string, unknown>)[from] !== undefined) out[to] = (b as Record<string, unknown>)[from]
  if (b.limite_centavos !== undefined) out.limiteCentavos = b.limite_centavos === null ? null : BigInt(b.limite_centavos)
  // A CEP is taken as typed ("01304-001") and kept as its 8 digits, as the banks' files carry it.
  if (typeof out.cep === 'string') out.cep = out.cep.replace('-', '')
  return out as Partial<PartyFields & Endereco>
}
