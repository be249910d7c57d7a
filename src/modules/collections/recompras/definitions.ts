// The buy-backs' routes as data (issue 33: recompras): schemas that validate, serialize and document them. A buy-back
// and its payment move money in the ledger: an Idempotency-Key is required.
import { Type, type Static } from 'typebox'
import { Conflict, guardRefusals, NotFound, PageQuery } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { ValidationProblem } from '../../../platform/http/schemas.ts'
import { idempotencyProblems } from '../../../platform/idempotency/schemas.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Uuid = Type.String({ format: 'uuid' })

export const MOTIVOS_RECOMPRA = ['vicio_de_origem', 'inadimplencia'] as const
export const FORMAS_RECOMPRA = ['pagamento', 'compensacao'] as const
export const ESTADOS_RECOMPRA = ['aberta', 'paga', 'compensada', 'cancelada'] as const

export const RecompraIn = Type.Object({
  titulo_ids: Type.Array(Uuid, { minItems: 1, maxItems: 500, uniqueItems: true, description: 'Acquired títulos of one cedente, with an open balance.' }),
  motivo: Type.String({ enum: [...MOTIVOS_RECOMPRA], description: '`vicio_de_origem`: a defect of the título\'s origin (goods returned, a '
    + 'service not rendered, a forged or duplicated título): always. `inadimplencia`: the sacado\'s default, past the due date, only where the '
    + 'título\'s product carries the cedente\'s coobrigação (STJ, REsp 1.711.412/MG: void in plain factoring).' }),
  descricao: Type.String({ minLength: 3, maxLength: 500, description: 'What happened, in words, for the record.' }),
  forma: Type.String({ enum: [...FORMAS_RECOMPRA], description: '`pagamento`: the cedente pays it (POST …/pagamento records the payment); '
    + '`compensacao`: deducted from the cedente\'s next operation.' }),
}, { additionalProperties: false })
export type RecompraInT = Static<typeof RecompraIn>

export const RecompraPagamentoIn = Type.Object({
  id_transacao: Type.String({ pattern: '^[!-~]{1,100}$', description: 'The bank\'s id of the cedente\'s transfer (a PIX end-to-end id, a TED number).' }),
  pago_em: Type.String({ format: 'date-time', description: 'When the money came in: on or after the buy-back\'s day, not in the future.' }),
}, { additionalProperties: false })

export const RecompraCancelamentoIn = Type.Object({
  motivo: Type.String({ minLength: 3, maxLength: 500, description: 'Why the buy-back is cancelled (made by mistake, the cedente disputes it…).' }),
}, { additionalProperties: false })

export const RecompraOut = Type.Object({
  id: Uuid,
  cedente_id: Uuid,
  motivo: Type.String({ enum: [...MOTIVOS_RECOMPRA] }),
  descricao: Type.String(),
  forma: Type.String({ enum: [...FORMAS_RECOMPRA] }),
  coobrigacao: Type.Boolean({ description: 'Whether every título\'s product carries the cedente\'s coobrigação.' }),
  data: Type.String({ description: 'The day the buy-back was priced and posted (Brasília).' }),
  principal_centavos: Type.Integer({ description: 'The títulos\' open balances.' }),
  encargos_centavos: Type.Integer({ description: 'The juros and multa they owed that day, by their charges\' terms.' }),
  valor_centavos: Type.Integer({ description: 'What the cedente owes: principal and encargos.' }),
  estado: Type.String({ enum: [...ESTADOS_RECOMPRA] }),
  lancamento_id: Uuid,
  id_transacao: OrNull(Type.String()),
  pago_em: OrNull(Type.String({ format: 'date-time' })),
  operacao_id: OrNull(Type.String({ format: 'uuid', description: 'The operation whose quote compensated it.' })),
  cancelada_em: OrNull(Type.String({ format: 'date-time' })),
  motivo_cancelamento: OrNull(Type.String({ description: 'Why it was cancelled, as the person wrote it.' })),
  cancelamento_lancamento_id: OrNull(Type.String({ format: 'uuid', description: 'The entry that reversed the buy-back\'s.' })),
  titulos: Type.Array(Type.Object({
    titulo_id: Uuid, saldo_centavos: Type.Integer(), juros_centavos: Type.Integer(), multa_centavos: Type.Integer(),
    desagio_reconhecido_centavos: Type.Integer({ description: 'The deságio the título had not yet earned, recognised by the buy-back.' }),
  })),
  criado_em: Type.String({ format: 'date-time' }),
  atualizado_em: Type.String({ format: 'date-time' }),
})

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const Params = Type.Object({ id: Type.String() })
const tags = ['recompras']
const KeyHeader = Type.Object({ 'idempotency-key': Type.String({ description: 'Required: a buy-back moves money in the ledger.' }) })

export const RECOMPRA_ROUTES = {
  criar: {
    method: 'POST', url: '/api/recompras', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'criarRecompra', tags, body: RecompraIn, headers: KeyHeader,
      summary: 'Have the cedente buy back títulos, for their open balance with the juros and multa they owe today',
      response: {
        201: RecompraOut, ...refusals, ...idempotencyProblems, ...NotFound('título'),
        422: ValidationProblem('The body breaks the schema, or a rule: títulos of more than one cedente; a default buy-back of a título not '
          + 'yet due: every item.'),
        ...Conflict('A título is not acquired or has no open balance (titulo_nao_adquirido, with `estado`); a buy-back for default of títulos '
          + 'whose product carries no coobrigação (recompra_sem_coobrigacao, with `titulo_ids`); or the key is in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/recompras', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarRecompras', tags, summary: 'The buy-backs, newest first',
      querystring: Type.Object({
        ...PageQuery, cedente_id: Type.Optional(Uuid), estado: Type.Optional(Type.String({ enum: [...ESTADOS_RECOMPRA] })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(RecompraOut), proximo: OrNull(Type.Integer()) }), ...refusals,
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/recompras/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerRecompra', tags, summary: 'One buy-back', params: Params,
      response: { 200: RecompraOut, ...refusals, ...NotFound('buy-back') },
    },
  },
  pagamento: {
    method: 'POST', url: '/api/recompras/:id/pagamento', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'pagarRecompra', tags, params: Params, body: RecompraPagamentoIn, headers: KeyHeader,
      summary: 'Record the cedente\'s payment of a buy-back: the bank debited, the cedente\'s conta gráfica credited',
      response: {
        200: RecompraOut, ...refusals, ...idempotencyProblems, ...NotFound('buy-back'),
        422: ValidationProblem('pago_em before the buy-back\'s day or in the future: every item.'),
        ...Conflict('The buy-back is paid already, or compensated, or to be compensated (estado_invalido, with `estado`); the transfer is '
          + 'recorded for another buy-back (id_transacao_em_uso, with its `recompra_id`); or the key is in use.'),
      },
    },
  },
  cancelamento: {
    method: 'POST', url: '/api/recompras/:id/cancelamento', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'cancelarRecompra', tags, params: Params, body: RecompraCancelamentoIn, headers: KeyHeader,
      summary: 'Cancel an open buy-back: its entry reversed, its títulos acquired again with the balances and deságio they had',
      response: {
        200: RecompraOut, ...refusals, ...idempotencyProblems, ...NotFound('buy-back'),
        422: ValidationProblem('The body breaks the schema: every item.'),
        ...Conflict('The buy-back is paid, compensated or cancelled already (estado_invalido, with `estado`); or the key is in use.'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
