// Confirmation with the sacado as routes (issue 34): start one (a link e-mailed, or a person's record of a call or
// an e-mail with its evidence), waive it (an approver), read a título's confirmations and an evidence file.
import { Type, type Static } from 'typebox'
import { Conflict, guardRefusals, NotFound } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { UNSAFE_NAME_CHARACTER } from '../../../platform/lib/chosen-name.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })
const Params = Type.Object({ id: Type.String() })
const tag = (summary: string, operationId: string) => ({ hide: true, tags: ['titulos'], summary, operationId })
const invalid = (what: string) => ({ 422: ValidationProblem(what) })

/**
 * The largest evidence file kept (an e-mail printed to PDF, a short call's recording), before base64. It travels in
 * the JSON body, read whole: a few megabytes at most, so that several at once stay far within the process's heap.
 */
export const EVIDENCE_MAX_BYTES = 2 * 1024 * 1024
/** How long the sacado's link opens its page. */
export const LINK_DAYS = 7

/** Text of several lines: none of the unsafe characters but the line feed (the table's CHECK, migration 0049), some non-blank. */
const lines = (min: number) => `^(?=(?:\\s*\\S){${min}})[^${UNSAFE_NAME_CHARACTER.source.slice(1, -1)
  .replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b-\\u001f')}]*$`
const Observacao = Type.String({ minLength: 1, maxLength: 2000, pattern: lines(1), description: 'What was said, or why: kept with the confirmation.' })
const FILE_NAME = `^[^${UNSAFE_NAME_CHARACTER.source.slice(1, -1)}/\\\\"]{1,200}$`
const Evidencia = Type.Object({
  conteudo_base64: Type.String({ minLength: 4, maxLength: Math.ceil(EVIDENCE_MAX_BYTES / 3) * 4, contentEncoding: 'base64',
    description: `The file, base64 (up to ${EVIDENCE_MAX_BYTES / 1024 / 1024} MiB before encoding): its SHA-256 is computed by the service.` }),
  tipo: Type.String({ pattern: '^[a-z0-9!#$&^_.+-]{1,127}/[a-z0-9!#$&^_.+-]{1,127}$', description: 'Its media type: application/pdf, audio/mpeg, '
    + 'message/rfc822, image/png…' }),
  nome_arquivo: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: FILE_NAME })),
}, { additionalProperties: false })

export const RESULTADOS = ['confirmado', 'parcial', 'contestado', 'sem_contato'] as const

export const ConfirmacaoIn = Type.Object({
  meio: Type.String({ enum: ['link', 'telefone', 'email'], description: '`link`: a one-time link e-mailed to the sacado\'s address in its register '
    + '(PATCH /api/sacados/{id} sets it), to a page where it confirms or contests the título. `telefone`, `email`: a person confirmed it so, '
    + 'and records the result with its evidence (the fields below, with these only).' }),
  resultado: Type.Optional(Type.String({ enum: [...RESULTADOS], description: 'Required with telefone and email.' })),
  observacao: Type.Optional(Observacao),
  valor_confirmado_centavos: Type.Optional(Type.Integer({ minimum: 1, maximum: 9007199254740991,
    description: 'What the sacado owns to owe, below the face value: with resultado parcial only, and then required.' })),
  evidencia: Type.Optional(Evidencia),
}, { additionalProperties: false })
export type ConfirmacaoInT = Static<typeof ConfirmacaoIn>

export const DispensaIn = Type.Object({
  motivo: Type.String({ minLength: 3, maxLength: 2000, pattern: lines(3), description: 'Why no confirmation is needed (a known sacado, a contract): kept.' }),
}, { additionalProperties: false })

export const ESTADOS_CONFIRMACAO_REGISTRO = ['em_andamento', 'confirmado', 'parcial', 'contestado', 'sem_contato', 'dispensado', 'substituida'] as const

export const ConfirmacaoOut = Type.Object({
  id: Uuid,
  titulo_id: Uuid,
  meio: Type.String({ enum: ['link', 'telefone', 'email', 'dispensa'] }),
  estado: Type.String({ enum: [...ESTADOS_CONFIRMACAO_REGISTRO], description: '`substituida`: a newer one was started before the link was answered.' }),
  destinatario: OrNull(Type.String({ description: 'Where the link was sent.' })),
  expira_em: OrNull(Type.String({ format: 'date-time', description: 'Until when the link opens its page.' })),
  expirada: Type.Boolean({ description: 'The link was not answered in time: start another.' }),
  respondido_em: OrNull(Type.String({ format: 'date-time', description: 'When the sacado answered on the page.' })),
  observacao: OrNull(Type.String({ description: 'The sacado\'s reason (a contest), the person\'s note, or the waiver\'s reason.' })),
  valor_confirmado_centavos: OrNull(Type.Integer()),
  evidencia: OrNull(Type.Object({
    sha256: Type.String({ description: 'Computed by the service from the bytes received.' }), tipo: Type.String(),
    nome_arquivo: OrNull(Type.String()), tamanho_bytes: Type.Integer(),
  })),
  usuario_id: OrNull(Type.String({ format: 'uuid', description: 'Who started or recorded it (null: a token with no person).' })),
  criado_em: Instant,
})

const ConfirmacoesOut = Type.Object({
  titulo_id: Uuid,
  confirmacao_estado: Type.String(),
  itens: Type.Array(ConfirmacaoOut, { description: 'Newest first.' }),
})

const STATE = 'The título is not one a confirmation is for (estado_invalido, with its `estado`: only ofertado and adquirido), or the key is in use.'

export const CONFIRMATION_ROUTES = {
  iniciar: {
    method: 'POST', url: '/api/titulos/:id/confirmacao', escopo: 'operacoes',
    schema: {
      ...tag('Starts a confirmation with the sacado: a one-time link by e-mail, or a phone or e-mail confirmation recorded with its evidence',
        'iniciarConfirmacao'), headers: IdempotencyKeyHeader, params: Params, body: ConfirmacaoIn,
      response: {
        201: ConfirmacaoOut, ...guardRefusals('operacoes'), ...NotFound('título'), ...idempotencyProblems,
        ...Conflict(`${STATE} Or a link for a sacado with no e-mail in its register (sacado_sem_email, with \`sacado_id\`), or from a customer `
          + 'whose CNPJ is not recorded (empresa_sem_cnpj: the sacado is told who asks by it).'),
        ...invalid('The body breaks the schema; with meio link, a field of a person\'s record; without, no resultado; a confirmed, partial or '
          + 'contested result without evidence; parcial without valor_confirmado_centavos (or one not below the face value), or that value with another '
          + 'result; contestado without observacao.'),
      },
    },
  },
  dispensar: {
    method: 'POST', url: '/api/titulos/:id/confirmacao/dispensa', escopo: 'aprovacao',
    schema: {
      ...tag('An approver waives the confirmation of a título (it then counts as confirmed for acceptance)', 'dispensarConfirmacao'),
      headers: IdempotencyKeyHeader, params: Params, body: DispensaIn,
      response: { 201: ConfirmacaoOut, ...guardRefusals('aprovacao'), ...NotFound('título'), ...idempotencyProblems, ...invalid('The body breaks the schema.'),
        ...Conflict(STATE),
        403: Problem('The scope aprovacao is missing, the role does not reach it (papel_insuficiente), or the token has no person '
          + '(aprovacao_pelo_mesmo_usuario: a waiver is a person\'s decision).', 'aprovacao_pelo_mesmo_usuario') },
    },
  },
  listar: {
    method: 'GET', url: '/api/titulos/:id/confirmacoes', escopo: 'operacoes',
    schema: {
      ...tag('A título\'s confirmations, newest first, and its confirmation state', 'listarConfirmacoes'), params: Params,
      response: { 200: ConfirmacoesOut, ...guardRefusals('operacoes'), ...NotFound('título') },
    },
  },
  evidencia: {
    method: 'GET', url: '/api/titulos/:id/confirmacoes/:confirmacao/evidencia', escopo: 'operacoes',
    schema: {
      ...tag('The evidence file of a recorded confirmation, as sent', 'baixarEvidencia'),
      params: Type.Object({ id: Type.String(), confirmacao: Type.String() }),
      response: {
        200: Type.String({ description: 'The bytes sent, with their type (application/octet-stream for a type a browser would run) and a '
          + 'Content-Disposition to save them.', 'x-media-types': ['application/octet-stream'] }),
        ...guardRefusals('operacoes'), ...NotFound('título, confirmation or evidence'),
      },
    },
  },
} satisfies Record<string, RouteDefinition>
