// The collection accounts' routes as data (issue 33: contas de cobrança): schemas that validate, serialize and
// document them (the customers' document is made from these: src/platform/http/route-document.ts).
import { Type, type Static } from 'typebox'
import { guardRefusals, PageQuery } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { BANCOS } from '../boleto/bancos.ts'
import { LAYOUTS_CNAB, TRANSPORTES } from './tables.ts'

/** The most digits a nosso número's sequence has at any of the five banks (Caixa's 15): each bank's own is checked after. */
export const MAX_NOSSO_NUMERO = 999_999_999_999_999
const PIX_KEY = '^[^\\s\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]{1,77}$'

const fields = {
  nome: Type.String({ minLength: 2, maxLength: 120, description: 'What the customer calls the account ("Itaú cobrança 109").' }),
  convenio: Type.Union([Type.String({ pattern: '^[0-9]{1,20}$' }), Type.Null()], {
    description: 'The bank\'s code of the beneficiary, where it has one: Banco do Brasil\'s convênio (7 digits), Santander\'s código do '
      + 'beneficiário (7), Caixa\'s (6). Required at those three.',
  }),
  layout_cnab: Type.String({ enum: [...LAYOUTS_CNAB], description: '`240` at every bank; `400` only where the bank still takes it (237 Bradesco, 341 Itaú).' }),
  transporte: Type.String({ enum: [...TRANSPORTES], description: 'How charges reach the bank: CNAB files (`cnab`, the default) or the bank\'s API (`api`).' }),
  chave_pix: Type.Union([Type.String({ pattern: PIX_KEY }), Type.Null()], {
    description: 'The account\'s PIX key (CPF, CNPJ, e-mail, +55 phone or random key), for the charges\' BR Code: up to 77 characters, no blanks.',
  }),
  proximo_nosso_numero: Type.Integer({ minimum: 1, maximum: MAX_NOSSO_NUMERO,
    description: 'The next nosso número\'s sequence, within the bank\'s digits (BB 10, Santander 12, Caixa 15, Bradesco 11, Itaú 8); 1 by default.' }),
  proxima_remessa: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The next remessa file\'s sequence number; 1 by default.' }),
}

export const ContaCobrancaIn = Type.Object({
  id_externo: Type.Optional(Type.String({ pattern: '^[!-~]{1,64}$' })),
  nome: fields.nome,
  banco: Type.String({ enum: [...BANCOS], description: '`001` Banco do Brasil, `033` Santander, `104` Caixa, `237` Bradesco, `341` Itaú.' }),
  agencia: Type.String({ pattern: '^[0-9]{4}$', description: 'The agência, 4 digits.' }),
  agencia_digito: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9A-Z]$' }), Type.Null()])),
  conta: Type.String({ pattern: '^[0-9]{1,12}$', description: 'The account number without its check digit (Itaú: 5 digits; Bradesco: up to 7).' }),
  conta_digito: Type.String({ pattern: '^[0-9A-Z]$', description: 'The account\'s check digit (Itaú\'s is checked: módulo 10 of agência and conta).' }),
  carteira: Type.String({ pattern: '^[0-9A-Z]{1,3}$',
    description: 'The carteira of the bank\'s contract (BB and Bradesco: 2 digits; Santander and Itaú: 3).' }),
  convenio: Type.Optional(fields.convenio),
  layout_cnab: Type.Optional(fields.layout_cnab),
  transporte: Type.Optional(fields.transporte),
  chave_pix: Type.Optional(fields.chave_pix),
  proximo_nosso_numero: Type.Optional(fields.proximo_nosso_numero),
  proxima_remessa: Type.Optional(fields.proxima_remessa),
}, { additionalProperties: false })

/** What a change may set; the bank, agência, conta and carteira never change (another account is added instead). */
export const ContaCobrancaPatch = Type.Object({
  nome: Type.Optional(fields.nome),
  convenio: Type.Optional(fields.convenio),
  layout_cnab: Type.Optional(fields.layout_cnab),
  transporte: Type.Optional(fields.transporte),
  chave_pix: Type.Optional(fields.chave_pix),
  ativa: Type.Optional(Type.Boolean({ description: 'false: no new charge is registered under it.' })),
  proximo_nosso_numero: Type.Optional(fields.proximo_nosso_numero),
  proxima_remessa: Type.Optional(fields.proxima_remessa),
}, { additionalProperties: false })

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const ContaCobrancaOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  id_externo: OrNull(Type.String()),
  nome: Type.String(),
  banco: Type.String(),
  banco_nome: Type.String(),
  agencia: Type.String(),
  agencia_digito: OrNull(Type.String()),
  conta: Type.String(),
  conta_digito: Type.String(),
  carteira: Type.String(),
  convenio: OrNull(Type.String()),
  layout_cnab: Type.String(),
  transporte: Type.String(),
  chave_pix: OrNull(Type.String()),
  proximo_nosso_numero: Type.Integer(),
  proxima_remessa: Type.Integer(),
  ativa: Type.Boolean(),
  confirmada: Type.Boolean({ description: 'Confirmed by a second person: only then may charges be registered under it.' }),
  incluida_em: Type.String({ format: 'date-time' }),
  incluida_por_usuario_id: Type.String({ format: 'uuid' }),
  incluida_por: OrNull(Type.String({ description: 'The name of the person who added it.' })),
  confirmada_em: OrNull(Type.String({ format: 'date-time' })),
  confirmada_por_usuario_id: OrNull(Type.String({ format: 'uuid' })),
  confirmada_por: OrNull(Type.String({ description: 'The name of the person who confirmed it.' })),
  atualizada_em: Type.String({ format: 'date-time' }),
})

export type ContaCobrancaInT = Static<typeof ContaCobrancaIn>
export type ContaCobrancaPatchT = Static<typeof ContaCobrancaPatch>

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const notFound = { 404: Problem('No collection account of your customer has this id (another customer\'s included).', 'nao_encontrado') }
const invalid = {
  422: ValidationProblem('The body or the query breaks the schema, or a rule: what the bank needs of the account (a convênio\'s digits, a '
    + 'carteira, Itaú\'s account check digit), CNAB 400 at a bank that takes 240 only, a sequence that would go down, a name with control '
    + 'characters: every item.'),
}
const Params = Type.Object({ id: Type.String() })

export const ACCOUNT_ROUTES = {
  criar: {
    method: 'POST', url: '/api/contas-cobranca', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'criarContaCobranca', tags: ['contas-cobranca'], headers: IdempotencyKeyHeader, body: ContaCobrancaIn,
      summary: 'Add a collection account: usable for charges once another person confirms it',
      response: {
        201: ContaCobrancaOut, ...refusals, ...invalid, ...idempotencyProblems,
        403: Problem('A token with no person (aprovacao_pelo_mesmo_usuario: a person adds an account, another confirms it); or the role or '
          + 'scope lacks `cobranca` (papel_insuficiente, escopo_insuficiente).', 'aprovacao_pelo_mesmo_usuario'),
        409: Type.Object({
          detail: Type.String({ description: 'Stable error code; clients branch on it, not on prose.', examples: ['conta_cobranca_existente'] }),
          id: Type.Optional(Type.String({ format: 'uuid', description: 'The account that holds the bank, agência, conta and carteira, or the id_externo.' })),
        }, {
          description: 'The customer has this account (the same bank, agência, conta and carteira: conta_cobranca_existente) or this id_externo '
            + '(id_externo_em_uso), named by `id`; or the first request with this Idempotency-Key has not finished (chave_idempotencia_em_uso).',
        }),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/contas-cobranca', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarContasCobranca', tags: ['contas-cobranca'], summary: 'The customer\'s collection accounts, newest first',
      querystring: Type.Object({
        ...PageQuery,
        banco: Type.Optional(Type.String({ enum: [...BANCOS] })),
        ativa: Type.Optional(Type.String({ enum: ['true', 'false'] })),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ itens: Type.Array(ContaCobrancaOut), proximo: OrNull(Type.Integer()) }), ...refusals, ...invalid },
    },
  },
  ler: {
    method: 'GET', url: '/api/contas-cobranca/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerContaCobranca', tags: ['contas-cobranca'], summary: 'One collection account', params: Params,
      response: { 200: ContaCobrancaOut, ...refusals, ...notFound },
    },
  },
  alterar: {
    method: 'PATCH', url: '/api/contas-cobranca/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'alterarContaCobranca', tags: ['contas-cobranca'], headers: IdempotencyKeyHeader, params: Params, body: ContaCobrancaPatch,
      summary: 'Change a collection account: only the fields given; the sequences only go up; a new convênio, PIX key or transport '
        + 'takes the confirmation away (a second person confirms again)',
      response: { 200: ContaCobrancaOut, ...refusals, ...notFound, ...invalid, ...idempotencyProblems },
    },
  },
  confirmar: {
    method: 'POST', url: '/api/contas-cobranca/:id/confirmacao', escopo: 'aprovacao',
    schema: {
      hide: true, operationId: 'confirmarContaCobranca', tags: ['contas-cobranca'], headers: IdempotencyKeyHeader, params: Params,
      summary: 'Confirm a collection account, so that charges may be registered under it (a person other than the one who added it)',
      response: {
        200: ContaCobrancaOut, ...guardRefusals('aprovacao'), ...idempotencyProblems, ...notFound,
        403: Problem('The person who added the account, or a token with no person (aprovacao_pelo_mesmo_usuario); or the role or scope '
          + 'lacks `aprovacao`.', 'aprovacao_pelo_mesmo_usuario'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
