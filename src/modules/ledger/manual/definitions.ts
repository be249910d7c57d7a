// The manual entries' routes as data (issue 32 item 10): an administrador proposes a balanced entry (scope
// `financeiro`), a second person confirms it, and only then is it posted, or it is refused (scope `aprovacao`).
// Proposing and confirming require Idempotency-Key, as a payment's steps do.
import { writtenTextPattern } from '../../../platform/lib/chosen-name.ts'
import { Type, type Static } from 'typebox'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { Centavos, Conflict, Day, guardRefusals, MotivoIn, NotFound, PageQuery } from '../../../platform/http/api-schemas.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { CONTAS_MANUAIS } from '../accounts.ts'
import { ESTADOS, MOTIVOS } from './tables.ts'

const Uuid = Type.String({ format: 'uuid' })
const Instant = Type.String({ format: 'date-time' })
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Params = Type.Object({ id: Type.String() })
const tag = (summary: string, operationId: string) => ({ hide: true, tags: ['contabil'], summary, operationId })
const required = {
  headers: Type.Object({ 'idempotency-key': Type.String({ description: 'Required: confirming moves the ledger; proposing twice would propose twice.' }) }),
}

/** At most this many lines in one entry. */
export const MAX_LINHAS = 20

export const LinhaManualIn = Type.Object({
  conta: Type.String({ enum: [...CONTAS_MANUAIS], description: 'An account of the chart; never conta_grafica_cedentes nor direitos_creditorios, '
    + 'which only operations and payments move.' }),
  debito_centavos: Type.Optional(Centavos),
  credito_centavos: Type.Optional(Centavos),
}, { additionalProperties: false, description: 'One side above zero: a debit or a credit.' })

export const LancamentoManualIn = Type.Object({
  data: Day,
  historico: Type.String({ minLength: 2, maxLength: 300, pattern: writtenTextPattern(2), description: 'What the entry records, as the ledger shows it.' }),
  motivo: Type.String({ enum: [...MOTIVOS], description: 'aporte_capital, funding_recebido, tarifa_bancaria or ajuste.' }),
  justificativa: Type.String({ minLength: 3, maxLength: 500, pattern: writtenTextPattern(3),
    description: 'Why, in words, for the person who confirms it and the audit.' }),
  linhas: Type.Array(LinhaManualIn, { minItems: 2, maxItems: MAX_LINHAS }),
}, { additionalProperties: false })
export type LancamentoManualInT = Static<typeof LancamentoManualIn>


export const LancamentoManualOut = Type.Object({
  id: Uuid,
  data: Type.String({ format: 'date' }),
  historico: Type.String(),
  motivo: Type.String({ enum: [...MOTIVOS] }),
  justificativa: Type.String(),
  estado: Type.String({ enum: [...ESTADOS] }),
  linhas: Type.Array(Type.Object({ conta: Type.String(), debito_centavos: Centavos, credito_centavos: Centavos })),
  total_centavos: Type.Integer({ description: 'The debits (equal to the credits).' }),
  solicitante_usuario_id: Uuid,
  solicitado_em: Instant,
  confirmado_por_usuario_id: OrNull(Uuid),
  confirmado_em: OrNull(Instant),
  lancamento_id: OrNull(Uuid),
  recusado_por_usuario_id: OrNull(Uuid),
  recusado_em: OrNull(Instant),
  motivo_recusa: OrNull(Type.String()),
})

const STATE = 'The entry is not waiting for confirmation (estado_invalido, with its `estado`), or the key is in use.'

export const MANUAL_ENTRY_ROUTES = {
  propor: {
    method: 'POST', url: '/api/lancamentos-manuais', escopo: 'financeiro',
    schema: {
      ...tag('An administrador proposes a balanced entry; a second person confirms it before it is posted', 'proporLancamentoManual'), ...required,
      body: LancamentoManualIn,
      response: {
        201: LancamentoManualOut, ...guardRefusals('financeiro'), ...idempotencyProblems,
        403: Problem('The scope financeiro is missing, or the person is not an administrador, or the token has no person (papel_insuficiente).',
          'papel_insuficiente'),
        422: ValidationProblem('The body breaks the schema; or a day that does not exist or is in the future, a line with both sides or neither, '
          + 'or lines that do not balance (an item on every line, with the debits and credits in `ctx`): every item.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/lancamentos-manuais', escopo: 'financeiro',
    schema: {
      ...tag('The manual entries, newest first (estado=aguardando_confirmacao: what waits for a second person)', 'listarLancamentosManuais'),
      querystring: Type.Object({ ...PageQuery, estado: Type.Optional(Type.String({ enum: [...ESTADOS] })) }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(LancamentoManualOut), proximo: OrNull(Type.Integer()) }), ...guardRefusals('financeiro'),
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/lancamentos-manuais/:id', escopo: 'financeiro',
    schema: { ...tag('A manual entry', 'lerLancamentoManual'), params: Params,
      response: { 200: LancamentoManualOut, ...guardRefusals('financeiro'), ...NotFound('manual entry') } },
  },
  confirmacao: {
    method: 'POST', url: '/api/lancamentos-manuais/:id/confirmacao', escopo: 'aprovacao',
    schema: {
      ...tag('A second person confirms the entry: it is posted to the ledger', 'confirmarLancamentoManual'), ...required, params: Params,
      response: {
        200: LancamentoManualOut, ...guardRefusals('aprovacao'), ...NotFound('manual entry'), ...idempotencyProblems,
        403: Problem('The scope aprovacao is missing, the role does not reach it (papel_insuficiente), or the confirmer proposed the entry or is '
          + 'a token with no person (aprovacao_pelo_mesmo_usuario).', 'aprovacao_pelo_mesmo_usuario'),
        ...Conflict(`${STATE} Or total_contabil_excedido: the ledger would hold more than 2^53 − 1 centavos in all.`),
      },
    },
  },
  recusa: {
    method: 'POST', url: '/api/lancamentos-manuais/:id/recusa', escopo: 'aprovacao',
    schema: {
      ...tag('Refuses the entry with a reason (or its proposer withdraws it): nothing is posted', 'recusarLancamentoManual'),
      headers: IdempotencyKeyHeader, params: Params, body: MotivoIn,
      response: {
        200: LancamentoManualOut, ...guardRefusals('aprovacao'), ...NotFound('manual entry'), ...idempotencyProblems,
        422: ValidationProblem('The body breaks the schema.'), ...Conflict(STATE),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
