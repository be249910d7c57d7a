// The charges' routes as data (issue 33: cobranças): schemas that validate, serialize and document them (the
// customers' document is made from these: src/platform/http/route-document.ts). Creating one is [$]: it creates
// the sacado's obligation to pay at the bank, so an Idempotency-Key is required.
import { Type, type Static } from 'typebox'
import { Conflict, Day, guardRefusals, NotFound, PageQuery } from '../../../platform/http/api-schemas.ts'
import { Busca } from '../../../platform/http/list-query.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { ValidationProblem } from '../../../platform/http/schemas.ts'
import { idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { ESTADOS_COBRANCA, TIPOS_JUROS } from './tables.ts'

/**
 * A fraction as a decimal string (produto.md §1): "0.02" is 2 %. Up to 4 places: the banks' files carry percentages
 * with two decimals (9(13)V99), so 0.0215 (2,15 %) is the finest a bank is told.
 */
const Rate = (description: string) => Type.String({ pattern: '^0(\\.[0-9]{1,4})?$', description })

const Juros = Type.Union([
  Type.Object({ tipo: Type.Literal('valor_dia'), valor_centavos: Type.Integer({ minimum: 1, maximum: 9_999_999_999 }) }, { additionalProperties: false }),
  Type.Object({ tipo: Type.Literal('taxa_mensal'), taxa: Rate('A month\'s rate, simple, charged per day as rate / 30; above 0.') },
    { additionalProperties: false }),
  Type.Object({ tipo: Type.Literal('isento') }, { additionalProperties: false }),
], { description: 'Interest per day late: a value per day (`valor_dia`), a monthly rate (`taxa_mensal`), or none (`isento`, the default).' })

export const CobrancaIn = Type.Object({
  titulo_id: Type.String({ format: 'uuid', description: 'An acquired título of the customer with an open balance.' }),
  conta_cobranca_id: Type.String({ format: 'uuid', description: 'A confirmed, active collection account of the customer.' }),
  nosso_numero: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$',
    description: 'The customer\'s own nosso número (its sequence digits, without check digit: BB 10, Santander 12, Caixa 15, Bradesco 11, '
      + 'Itaú 8), unique per account; by default the account\'s next.' })),
  juros: Type.Optional(Juros),
  multa_percentual: Type.Optional(Rate('The fine once late, a fraction of the value: at most 0.02 when the sacado is a person (CPF: '
    + 'CDC art. 52 §1º), 0.1 otherwise (Decreto 22.626/1933 art. 9). 0 by default.')),
  desconto: Type.Optional(Type.Object({
    valor_centavos: Type.Integer({ minimum: 1, maximum: 9_999_999_999 }),
    ate: { ...Day, description: 'The last day the discount applies, on or before the due date.' },
  }, { additionalProperties: false, description: 'A discount for paying by a day.' })),
  protesto_dias: Type.Optional(Type.Integer({ minimum: 0, maximum: 99,
    description: 'Protest after this many calendar days late (1–99); 0, the default, never.' })),
}, { additionalProperties: false })

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const CobrancaOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  numero: Type.Integer({ description: 'The charge\'s number within the customer: 1, 2, 3…' }),
  titulo_id: Type.String({ format: 'uuid' }),
  conta_cobranca_id: Type.String({ format: 'uuid' }),
  banco: Type.String(),
  nosso_numero: Type.String({ description: 'As printed on the boleto, with the bank\'s separators and check digit ("109/00000001-2").' }),
  nosso_numero_sequencia: Type.String({ description: 'The sequence\'s digits alone, as given or taken from the account.' }),
  codigo_barras: Type.String({ pattern: '^[0-9]{44}$', description: 'The 44 digits of the barcode (FEBRABAN).' }),
  linha_digitavel: Type.String({ description: 'The 47 digits of the linha digitável as printed, with its dots and spaces.' }),
  valor_centavos: Type.Integer({ description: 'The título\'s open balance when charged.' }),
  vencimento: Type.String({ description: 'The título\'s due date.' }),
  juros: Type.Object({ tipo: Type.String({ enum: [...TIPOS_JUROS] }), valor_centavos: OrNull(Type.Integer()), taxa: OrNull(Type.String()) }),
  multa_percentual: Type.String(),
  desconto: OrNull(Type.Object({ valor_centavos: Type.Integer(), ate: Type.String() })),
  protesto_dias: Type.Integer(),
  estado: Type.String({ enum: [...ESTADOS_COBRANCA], description: '`a_registrar` until the bank registers it; then `registrada` or `rejeitada`; '
    + '`liquidada` or `baixada` by the bank\'s return.' }),
  pix_copia_e_cola: OrNull(Type.String({ description: 'The cobv\'s dynamic BR Code, once the bank registered the charge; null before.' })),
  criado_em: Type.String({ format: 'date-time' }),
  atualizado_em: Type.String({ format: 'date-time' }),
})

/** A charge in the list: the título's number and the sacado named, so a list needs no read per charge. */
export const CobrancaListada = Type.Object({
  ...CobrancaOut.properties,
  titulo_numero: Type.String({ description: 'The título\'s number, as the cedente issued it.' }),
  sacado: Type.Object({ id: Type.String({ format: 'uuid' }), razao_social: Type.String() }, { description: 'Who pays the título.' }),
})

export type CobrancaInT = Static<typeof CobrancaIn>

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const Params = Type.Object({ id: Type.String() })
const tags = ['cobrancas']

export const CHARGE_ROUTES = {
  criar: {
    method: 'POST', url: '/api/cobrancas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'criarCobranca', tags, body: CobrancaIn,
      headers: Type.Object({ 'idempotency-key': Type.String({ description: 'Required: a charge creates the sacado\'s obligation to pay.' }) }),
      summary: 'Charge an acquired título by boleto under a collection account, for its open balance and its due date',
      response: {
        201: CobrancaOut, ...refusals, ...idempotencyProblems,
        ...NotFound('título or collection account'),
        422: ValidationProblem('The body breaks the schema, or a rule: a nosso número longer than the bank\'s sequence or 0, a fine above '
          + 'what the sacado may be charged (2 % for a person), a discount not below the value or after the due date: every item.'),
        ...Conflict('The título is not acquired or has no open balance (titulo_nao_adquirido, with `estado`), or has a live charge '
          + '(titulo_ja_cobrado, with its `id`); the account waits for its confirmation (conta_cobranca_nao_confirmada) or is inactive '
          + '(conta_cobranca_inativa); the nosso número was given under the account (nosso_numero_em_uso, with the charge\'s `id`); '
          + 'or the key is in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/cobrancas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarCobrancas', tags, summary: 'The customer\'s charges, newest first; every one the filters give as CSV with '
        + 'Accept: text/csv',
      querystring: Type.Object({
        ...PageQuery,
        estado: Type.Optional(Type.String({ enum: [...ESTADOS_COBRANCA] })),
        conta_cobranca_id: Type.Optional(Type.String({ format: 'uuid' })),
        titulo_id: Type.Optional(Type.String({ format: 'uuid' })),
        busca: Busca,
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(CobrancaListada), proximo: OrNull(Type.Integer()) }), ...refusals,
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
  enviar: {
    method: 'POST', url: '/api/cobrancas/:id/email', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'enviarBoleto', tags, params: Params,
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: 'A retry with the key answers what the first did and '
        + 'sends nothing again.' })) }),
      summary: 'E-mail the boleto (its PDF attached, the linha digitável and the PIX copia e cola in the text) to the sacado\'s address, '
        + 'naming the customer as the payee from now on (the notice of the assignment, Código Civil art. 290)',
      response: {
        202: Type.Object({
          protocolo: Type.String({ description: 'The message\'s protocolo in the outbox: delivered at least once, retried while the mail '
            + 'server refuses it.' }),
          para: Type.String({ description: 'The sacado\'s address it goes to, from the register.' }),
        }),
        ...refusals, ...idempotencyProblems, ...NotFound('charge'),
        ...Conflict('The charge is not registered at the bank (cobranca_nao_registrada, with `estado`: a boleto the bank does not hold '
          + 'cannot be paid); its título is no longer acquired, bought back or written off (titulo_nao_adquirido, with `estado`) or a baixa '
          + 'of it was asked (baixa_ja_pedida, with the instruction\'s `id`); its sacado has no e-mail in the register (sacado_sem_email, '
          + 'with `sacado_id`); it was e-mailed less than an hour ago (boleto_enviado_recentemente, with `enviado_em` and `proximo_envio_em`); '
          + 'or the key is in use.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/cobrancas/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerCobranca', tags, summary: 'One charge', params: Params,
      response: { 200: CobrancaOut, ...refusals, ...NotFound('charge') },
    },
  },
  boleto: {
    method: 'GET', url: '/api/cobrancas/:id/boleto', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'boletoCobranca', tags, params: Params,
      summary: 'The printable boleto (the payer\'s receipt and the ficha de compensação, the barcode as SVG, the PIX QR code once '
        + 'registered): HTML to print, a PDF with Accept: application/pdf (or formato=pdf|html, for a link)',
      querystring: Type.Object({ formato: Type.Optional(Type.String({ enum: ['pdf', 'html'], description: 'Chooses the form over Accept.' })) },
        { additionalProperties: false }),
      response: {
        200: Type.String({ description: 'The boleto: beneficiário (the customer), sacador/avalista (the cedente), pagador (the sacado), '
          + 'the nosso número, the value, the due date, the instructions, the linha digitável and the barcode.',
        'x-media-types': ['text/html', 'application/pdf'] }),
        422: ValidationProblem('A formato out of the list.'),
        ...refusals, ...NotFound('charge'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
