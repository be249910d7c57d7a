// /api/titulos/{id}/confirmacao (issue 34): a confirmation with the sacado started (a link e-mailed through the
// outbox in the same transaction, so a rolled-back request sends nothing) or recorded by a person with its evidence,
// an approver's waiver, and a título's confirmations read back with their evidence files.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Orm } from '../../../platform/db/database.ts'
import { problem } from '../../../platform/http/problem.ts'
import { rateLimitFor } from '../../../platform/http/rate-limit.ts'
import { jsonAnswer, problemAnswer } from '../../../platform/idempotency/http.ts'
import { mutationRoute } from '../../../platform/idempotency/mutation-route.ts'
import { enqueueMessage } from '../../../platform/outbox/enqueue.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { byCredential, getCustomer, RoleError } from '../../credentials/index.ts'
import type { ValidationItem } from '../../../platform/http/validation-errors.ts'
import { fail } from '../checks.ts'
import { InvalidStateError, NoCustomerCnpjError, NoSacadoEmailError, SameApproverError } from '../errors.ts'
import type { OperationRoutesDeps } from '../routes.ts'
import { sha256Hex, termType } from '../termo-store.ts'
import { CONFIRMATION_ROUTES, EVIDENCE_MAX_BYTES, LINK_DAYS, type ConfirmacaoInT } from './definitions.ts'
import { renderLinkMail } from './mail.ts'
import { confirmationsOf, evidenceOf, getConfirmation, insertConfirmation, titleForConfirmation, type TitleToConfirm } from './store.ts'
import { newLinkToken } from './token.ts'
import { confirmationView } from './views.ts'

const NOT_FOUND = problem('nao_encontrado')
/** A confirmation is about a título being bought or owned: not one cancelled, settled, bought back or written off. */
const CONFIRMABLE = new Set(['ofertado', 'adquirido'])
/** The body's bound: the evidence's base64 and the rest. */
const BODY_LIMIT = Math.ceil(EVIDENCE_MAX_BYTES / 3) * 4 + 16 * 1024

export type ConfirmationRoutesDeps = OperationRoutesDeps & { publicUrl: string }

const item = (loc: string[], msg: string, input: unknown): ValidationItem => ({ type: 'value_error', loc: ['body', ...loc], msg: `Value error, ${msg}`, input })

/** A link takes the meio alone; a person's record its result: each field the other way is refused by name. */
function checkShape(b: ConfirmacaoInT): void {
  const items: ValidationItem[] = []
  if (b.meio === 'link') {
    for (const f of ['resultado', 'observacao', 'valor_confirmado_centavos', 'evidencia'] as const) {
      if (b[f] !== undefined) items.push(item([f], 'only with meio telefone or email', null))
    }
  } else if (b.resultado === undefined) {
    items.push({ type: 'missing', loc: ['body', 'resultado'], msg: 'Field required with meio telefone or email', input: null })
  }
  fail(items)
}

/** A person's record, checked as a whole: the evidence it needs, and the value of a partial one. */
function checkRecord(b: ConfirmacaoInT & { resultado: string }, face: bigint): { bytes: Buffer } | undefined {
  const items: ValidationItem[] = []
  let bytes: Buffer | undefined
  if (b.evidencia) {
    const text = b.evidencia.conteudo_base64
    bytes = Buffer.from(text, 'base64')
    // Node's decoder skips what is not base64: a body that does not round-trip is not the file it claims to be.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0 || bytes.length === 0) {
      items.push(item(['evidencia', 'conteudo_base64'], 'not base64', null))
    } else if (bytes.length > EVIDENCE_MAX_BYTES) {
      items.push(item(['evidencia', 'conteudo_base64'], `larger than ${EVIDENCE_MAX_BYTES} bytes`, null))
    }
  } else if (b.resultado !== 'sem_contato') {
    items.push({ type: 'missing', loc: ['body', 'evidencia'], input: null,
      msg: 'Field required: a confirmation, partial or contest recorded by a person keeps its evidence' })
  }
  if (b.resultado === 'parcial') {
    if (b.valor_confirmado_centavos === undefined) {
      items.push({ type: 'missing', loc: ['body', 'valor_confirmado_centavos'], msg: 'Field required with resultado parcial', input: null })
    } else if (BigInt(b.valor_confirmado_centavos) >= face) {
      items.push(item(['valor_confirmado_centavos'], `not below the face value (${face})`, b.valor_confirmado_centavos))
    }
  } else if (b.valor_confirmado_centavos !== undefined) {
    items.push(item(['valor_confirmado_centavos'], 'only with resultado parcial', b.valor_confirmado_centavos))
  }
  if (b.resultado === 'contestado' && !b.observacao?.trim()) {
    items.push({ type: 'missing', loc: ['body', 'observacao'], msg: 'Field required with resultado contestado: why the sacado contests it', input: null })
  }
  fail(items)
  return bytes && { bytes }
}

/** The título to confirm, locked; undefined when it is none of the customer's; refused when it has nothing to confirm. */
async function confirmable(tx: Orm, id: string): Promise<TitleToConfirm | undefined> {
  const t = isUuid(id) ? await titleForConfirmation(tx, id) : undefined
  if (t && !CONFIRMABLE.has(t.estado)) throw new InvalidStateError(t.estado)
  return t
}

export function confirmationRoutes(deps: ConfirmationRoutesDeps) {
  const { db, clock } = deps
  const mutation = { idempotency: deps.idempotency, clock, dbTimeoutMs: deps.dbTimeoutMs }
  const R = CONFIRMATION_ROUTES
  const config = (escopo: string) => ({ rateLimit: rateLimitFor(deps.budget), credencial: { escopo } })

  return async function (app: FastifyInstance) {
    mutationRoute<{ Params: { id: string }, Body: ConfirmacaoInT }, ActionContext>(app, mutation, {
      method: 'POST', url: R.iniciar.url, idempotency: 'accepted', config: config(R.iniciar.escopo), schema: R.iniciar.schema, caller: byCredential,
      bodyLimit: BODY_LIMIT, timeoutFactor: 8,
      work: async ({ tx, req, action }) => {
        const t = await confirmable(tx, req.params.id)
        if (!t) return { answer: problemAnswer(NOT_FOUND) }
        const b = req.body
        checkShape(b)
        const clienteId = req.credential!.clienteId
        const usuarioId = req.credential!.usuarioId
        let made: string
        if (b.meio === 'link') {
          const to = t.sacado_email
          if (!to) throw new NoSacadoEmailError(t.sacado_id)
          const { token, hash } = newLinkToken()
          const expiraEm = new Date(action.now.getTime() + LINK_DAYS * 86_400_000)
          made = await insertConfirmation(tx, {
            clienteId, tituloId: t.id, meio: 'link', estado: 'em_andamento', tokenHash: hash, destinatario: to, expiraEm, usuarioId, now: action.now,
          })
          const customer = (await getCustomer(tx, clienteId))!
          // The sacado is told who asks (and, for an acquired título, whom to pay from now on) by name and CNPJ.
          if (!customer.documento) throw new NoCustomerCnpjError()
          await enqueueMessage(tx, {
            kind: 'confirmacao_link', name: { prefix: 'CF' }, to, requestId: action.requestId ?? `confirmacao-${made}`, clienteId, expiresAt: expiraEm,
            ...renderLinkMail({
              link: `${deps.publicUrl}/confirmacao/${token}`, expiraEm, numero: t.numero, tipo: t.tipo, valorFaceCentavos: BigInt(t.valor_face_centavos),
              vencimento: t.vencimento, cedente: t.cedente_razao_social, sacado: t.sacado_razao_social,
              cessionario: { nome: customer.nome, documento: customer.documento }, adquirido: t.estado !== 'ofertado',
            }),
          }, { now: () => action.now })
        } else {
          // Someone answers for what was heard on the phone or read in an e-mail: a person, never a token no person made.
          if (!usuarioId) throw new RoleError('a confirmation recorded by phone or e-mail is a person\'s: a token the operator made has none')
          const record = b as ConfirmacaoInT & { meio: 'telefone' | 'email', resultado: string }
          const evidence = checkRecord(record, BigInt(t.valor_face_centavos))
          made = await insertConfirmation(tx, {
            clienteId, tituloId: t.id, meio: record.meio, estado: record.resultado, observacao: b.observacao?.trim() || null,
            valorConfirmadoCentavos: b.valor_confirmado_centavos === undefined ? null : BigInt(b.valor_confirmado_centavos),
            evidencia: evidence && b.evidencia
              ? { sha256: sha256Hex(evidence.bytes), tipo: b.evidencia.tipo, nome: b.evidencia.nome_arquivo ?? null, bytes: evidence.bytes }
              : null,
            usuarioId, now: action.now,
          })
        }
        const view = confirmationView((await getConfirmation(tx, t.id, made))!, action.now)
        return { answer: jsonAnswer(201, view), audit: { acao: b.meio === 'link' ? 'confirmacao.link_enviado' : 'confirmacao.registrada', alvoId: t.id } }
      },
    })

    mutationRoute<{ Params: { id: string }, Body: { motivo: string } }, ActionContext>(app, mutation, {
      method: 'POST', url: R.dispensar.url, idempotency: 'accepted', config: config(R.dispensar.escopo), schema: R.dispensar.schema,
      caller: byCredential, timeoutFactor: 8,
      work: async ({ tx, req, action }) => {
        // A waiver is a person's decision (the approver's, as a payment's approval): a token no person made has none.
        if (!req.credential!.usuarioId) throw new SameApproverError('a waiver is made by a person: a token the operator made has none')
        const t = await confirmable(tx, req.params.id)
        if (!t) return { answer: problemAnswer(NOT_FOUND) }
        const made = await insertConfirmation(tx, {
          clienteId: req.credential!.clienteId, tituloId: t.id, meio: 'dispensa', estado: 'dispensado', observacao: req.body.motivo.trim(),
          usuarioId: req.credential!.usuarioId, now: action.now,
        })
        const view = confirmationView((await getConfirmation(tx, t.id, made))!, action.now)
        return { answer: jsonAnswer(201, view), audit: { acao: 'confirmacao.dispensada', alvoId: t.id } }
      },
    })

    app.get(R.listar.url, { config: config(R.listar.escopo), schema: R.listar.schema }, async (request) => {
      const id = (request as FastifyRequest<{ Params: { id: string } }>).params.id
      const found = isUuid(id) ? await withTenant(db, request.credential!.clienteId, async (tx) => {
        const t = await titleForConfirmation(tx, id, false)
        return t && { t, list: await confirmationsOf(tx, id) }
      }) : undefined
      if (!found) throw NOT_FOUND
      const now = clock.now()
      return { titulo_id: id, confirmacao_estado: found.t.confirmacao_estado, itens: found.list.map((c) => confirmationView(c, now)) }
    })

    app.get(R.evidencia.url, { config: config(R.evidencia.escopo), schema: R.evidencia.schema }, async (request, reply) => {
      const { id, confirmacao } = (request as FastifyRequest<{ Params: { id: string, confirmacao: string } }>).params
      const file = isUuid(id) && isUuid(confirmacao) ? await withTenant(db, request.credential!.clienteId, (tx) => evidenceOf(tx, id, confirmacao)) : undefined
      if (!file) throw NOT_FOUND
      const name = (file.nome ?? `evidencia-${confirmacao}`).replace(/[^\p{L}\p{N} ._-]/gu, '_')
      return reply.type(termType(file.tipo))
        .header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.bytes)
    })
  }
}
