// The pricing terms' routes as data (produto.md §2.2): schemas that validate, serialize and document them.
import { Type, type Static } from 'typebox'
import { Centavos, guardRefusals, PageQuery } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { TIPOS_TITULO } from '../engine.ts'


export const TermsIn = {
  base: Type.String({
    enum: ['simples_30', 'composta_30'], description: '`simples_30`: linear over a 30-day month; `composta_30`: compounded monthly over calendar days / 30.',
  }),
  taxa_mensal: Type.String({
    pattern: '^0\\.(?=[0-9]*[1-9])[0-9]{1,12}$', description: 'The discount rate a month, a fraction above 0 and below 1: "0.035" is 3.5 %.',
  }),
  taxa_ad_valorem: Type.String({ pattern: '^0(\\.[0-9]{1,12})?$', description: 'A fraction of face value, 0 or more and below 1.' }),
  tarifa_por_titulo_centavos: Centavos,
  tac_centavos: Type.Integer({
    minimum: 0, maximum: Number.MAX_SAFE_INTEGER,
    description: 'The tarifa de cadastro, per operation, in centavos (the field keeps its first name; see the glossary).',
  }),
  dias_float: Type.Optional(Type.Object(Object.fromEntries(TIPOS_TITULO.map((t) => [t, Type.Optional(Type.Integer({ minimum: 0, maximum: 10 }))])),
    { additionalProperties: false, description: 'Days of compensation float by type of título, 0–10 each; a type left out is 0.' })),
  iof: Type.String({ enum: ['calcular', 'isento'], description: '`isento`: a buyer that owes none (a FIDC), with `motivo_isencao`.' }),
  motivo_isencao: Type.Optional(Type.Union([Type.String({ minLength: 3, maxLength: 500 }), Type.Null()])),
  coobrigacao: Type.Optional(Type.Boolean({ description: 'Whether the cedente answers for the sacado\'s payment (a FIDC\'s or securitizadora\'s '
    + 'recourse): only then may a buy-back be asked for the sacado\'s default (in plain factoring, STJ REsp 1.711.412/MG). False by default.' })),
  exige_confirmacao: Type.Optional(Type.Boolean({ description: 'Whether an operation priced with it may be accepted only when every título is '
    + 'confirmed with its sacado (or the confirmation waived by an approver): otherwise 409 titulos_nao_confirmados. Left out: false for a new '
    + 'product, the version before\'s for a new version.' })),
  exige_registro: Type.Optional(Type.Boolean({ description: 'Whether an operation priced with it may be accepted only when every duplicata\'s '
    + 'last query of the registry of duplicatas escriturais is clean (otherwise 409 registro_impedido), and its acceptance registers each '
    + 'duplicata\'s assignment to the customer there. Left out: false for a new product, the version before\'s for a new version.' })),
}

export const ProdutoIn = Type.Object({
  id_externo: Type.Optional(Type.String({ pattern: '^[!-~]{1,64}$' })),
  nome: Type.String({ minLength: 2, maxLength: 200 }),
  ...TermsIn,
}, { additionalProperties: false })

export const VersaoIn = Type.Object(TermsIn, { additionalProperties: false })

const VersaoOut = Type.Object({
  versao: Type.Integer(),
  base: Type.String(),
  taxa_mensal: Type.String(),
  taxa_ad_valorem: Type.String(),
  tarifa_por_titulo_centavos: Type.Integer(),
  tac_centavos: Type.Integer(),
  dias_float: Type.Object(Object.fromEntries(TIPOS_TITULO.map((t) => [t, Type.Integer()]))),
  iof: Type.String(),
  motivo_isencao: Type.Union([Type.String(), Type.Null()]),
  coobrigacao: Type.Boolean(),
  exige_confirmacao: Type.Boolean(),
  exige_registro: Type.Boolean(),
  criado_em: Type.String({ format: 'date-time' }),
})

export const ProdutoOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  id_externo: Type.Union([Type.String(), Type.Null()]),
  nome: Type.String(),
  versao: Type.Integer({ description: 'The latest version\'s number: what a quote prices with.' }),
  criado_em: Type.String({ format: 'date-time' }),
  versoes: Type.Array(VersaoOut, { description: 'Newest first (in a list, the latest only).' }),
})

export type ProdutoInT = Static<typeof ProdutoIn>

const refusals = guardRefusals('cadastro')
const invalid = { 422: ValidationProblem('The body breaks the schema, or an exemption lacks its reason: every item.') }
const notFound = { 404: Problem('No product of the customer\'s has this id.', 'nao_encontrado') }
const held = {
  409: Type.Object({ detail: Type.String(), id: Type.Optional(Type.String({ format: 'uuid' })) },
    { description: 'The id_externo is the customer\'s already (id_externo_em_uso, with the `id`), or the Idempotency-Key is in use.' }),
}
const Params = Type.Object({ id: Type.String() })

export const TERMS_ROUTES = {
  criar: {
    method: 'POST', url: '/api/produtos', escopo: 'cadastro',
    schema: { hide: true, operationId: 'criarProduto', tags: ['produtos'], summary: 'A product, with its first version of the terms',
      headers: IdempotencyKeyHeader,
      body: ProdutoIn, response: { 201: ProdutoOut, ...refusals, ...invalid, ...idempotencyProblems, ...held } },
  },
  listar: {
    method: 'GET', url: '/api/produtos', escopo: 'cadastro',
    schema: { hide: true, operationId: 'listarProdutos', tags: ['produtos'],
      summary: 'The customer\'s products, newest first, each with its latest version',
      querystring: Type.Object({
        ...PageQuery,
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ itens: Type.Array(ProdutoOut), proximo: Type.Union([Type.Integer(), Type.Null()]) }), ...refusals, ...invalid } },
  },
  ler: {
    method: 'GET', url: '/api/produtos/:id', escopo: 'cadastro',
    schema: { hide: true, operationId: 'lerProduto', tags: ['produtos'], summary: 'A product and every version', params: Params,
      response: { 200: ProdutoOut, ...refusals, ...notFound } },
  },
  versao: {
    method: 'POST', url: '/api/produtos/:id/versoes', escopo: 'cadastro',
    schema: { hide: true, operationId: 'criarVersaoProduto', tags: ['produtos'], summary: 'The next version of a product\'s terms (versions never change)',
      headers: IdempotencyKeyHeader, params: Params, body: VersaoIn,
      response: { 201: ProdutoOut, ...refusals, ...notFound, ...invalid, ...idempotencyProblems } },
  },
} as const satisfies Record<string, RouteDefinition>
