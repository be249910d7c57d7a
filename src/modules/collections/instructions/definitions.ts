// The instructions' routes as data (issue 33: "Instructions after registration (POST /api/cobrancas/{id}/instrucoes
// [$])"): asking one is [$], since it changes what the sacado owes or whether the boleto can be paid, so an
// Idempotency-Key is required, as for the charge itself.
import { Type, type Static } from 'typebox'
import { Conflict, Day, guardRefusals, NotFound } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { ValidationProblem } from '../../../platform/http/schemas.ts'
import { idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { TRANSPORTES } from '../accounts/tables.ts'
import { ESTADOS_INSTRUCAO, INSTRUCOES } from './tables.ts'

/** How far a new due date may go: 365 days past the charge's own (issue 33: "Prorrogação … 365 in all at most"). */
export const PRORROGACAO_MAXIMA_DIAS = 365

export const InstrucaoIn = Type.Object({
  instrucao: Type.String({ enum: [...INSTRUCOES], description: '`alteracao_vencimento` (with `vencimento`), `abatimento` (with '
    + '`abatimento_centavos`), `baixa` (the bank stops collecting), `protestar`, `sustar_protesto`.' }),
  vencimento: Type.Optional({ ...Day, description: 'The new due date (alteracao_vencimento only): after today, and at most '
    + `${PRORROGACAO_MAXIMA_DIAS} days after the charge's own.` }),
  abatimento_centavos: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_999_999_999,
    description: 'The abatement (abatimento only): with the charge\'s other abatements asked, less than its value.' })),
}, { additionalProperties: false })

export type InstrucaoInT = Static<typeof InstrucaoIn>

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const InstrucaoOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  cobranca_id: Type.String({ format: 'uuid' }),
  instrucao: Type.String({ enum: [...INSTRUCOES] }),
  vencimento: OrNull(Type.String()),
  abatimento_centavos: OrNull(Type.Integer()),
  iof_centavos: OrNull(Type.Integer({ description: 'alteracao_vencimento only: the IOF complementar the added days cost (the daily rate in force '
    + 'when asked, on the título\'s balance; 365 days of IOF in all at most), charged to the cedente\'s conta gráfica when the bank confirms.' })),
  iof_dias: OrNull(Type.Integer({ description: 'alteracao_vencimento only: the days of IOF added (0 where the título already bore 365, or the '
    + 'date comes earlier).' })),
  transporte: Type.String({ enum: [...TRANSPORTES], description: 'The account\'s when asked: `api`, sent to the bank\'s API; `cnab`, in the '
    + 'next remessa.' }),
  estado: Type.String({ enum: [...ESTADOS_INSTRUCAO], description: '`pendente` until sent; `enviada` once in a remessa; `confirmada` or '
    + '`rejeitada` by the bank\'s answer.' }),
  tentativas: Type.Integer({ description: 'Times the bank\'s API was found unavailable (the instruction is asked again after a backoff).' }),
  erro: OrNull(Type.String({ description: 'The last reason the bank could not be asked.' })),
  banco_resposta: OrNull(Type.Object({}, { additionalProperties: true, description: 'What the bank answered, kept as it came.' })),
  criado_em: Type.String({ format: 'date-time' }),
  atualizado_em: Type.String({ format: 'date-time' }),
})

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const Params = Type.Object({ id: Type.String() })
const tags = ['cobrancas']

export const INSTRUCTION_ROUTES = {
  instruir: {
    method: 'POST', url: '/api/cobrancas/:id/instrucoes', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'instruirCobranca', tags, params: Params, body: InstrucaoIn,
      headers: Type.Object({ 'idempotency-key': Type.String({ description: 'Required: an instruction changes what the sacado owes.' }) }),
      summary: 'Ask the bank to change a registered charge: a new due date, an abatement, a write-off, a protest or its withdrawal',
      response: {
        201: InstrucaoOut, ...refusals, ...idempotencyProblems, ...NotFound('charge'),
        422: ValidationProblem('The body breaks the schema, or a rule: a due date missing, not after today, or past '
          + `${PRORROGACAO_MAXIMA_DIAS} days after the charge's; an abatement missing, or not below the value with the others asked; a field `
          + 'the instruction does not take: every item.'),
        ...Conflict('The charge is not registered (cobranca_nao_registrada, with `estado`); its baixa was asked (baixa_ja_pedida, with '
          + 'the instruction\'s `id`); no protest to withdraw (protesto_nao_pedido); or the key is in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/cobrancas/:id/instrucoes', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarInstrucoesCobranca', tags, params: Params, summary: 'A charge\'s instructions, in the order asked',
      response: { 200: Type.Object({ itens: Type.Array(InstrucaoOut) }), ...refusals, ...NotFound('charge') },
    },
  },
} as const satisfies Record<string, RouteDefinition>
