// The remessas' routes as data (issue 33: "POST /api/cnab/remessas (conta_cobranca_id) makes the file of the account's
// pending charges and instructions … GET /api/cnab/remessas/{id} downloads it"). Making one is [$]: the file
// registers the charges it carries at the bank, so an Idempotency-Key is required. The summary is JSON; the file
// itself is at /arquivo.
import { Type } from 'typebox'
import { Conflict, guardRefusals, NotFound, PageQuery } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { ValidationProblem } from '../../../platform/http/schemas.ts'
import { idempotencyProblems } from '../../../platform/idempotency/schemas.ts'
import { LAYOUTS_CNAB } from '../accounts/tables.ts'
import { INSTRUCOES } from '../instructions/tables.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

const Fora = Type.Array(Type.Object({
  cobranca_id: Type.String({ format: 'uuid' }),
  instrucao_id: OrNull(Type.String({ format: 'uuid' })),
  motivo: Type.String({ enum: ['sacado_sem_endereco', 'cobranca_nao_registrada', 'documento_alfanumerico', 'layout_recusou'],
    description: '`sacado_sem_endereco` (with `faltam`); `cobranca_nao_registrada`: an instruction whose charge the bank no longer holds; '
      + '`documento_alfanumerico`: a sacado\'s or cedente\'s CNPJ the layouts do not carry yet; `layout_recusou`: a value the layout cannot '
      + 'hold (with `detalhe`).' }),
  faltam: Type.Optional(Type.Array(Type.String(), { description: 'The parts of the sacado\'s address the file needs and it lacks.' })),
  detalhe: Type.Optional(Type.String()),
}), { description: 'What waits for the bank and stayed out of the file, and why: it goes in a later one once the reason is gone.' })

const Summary = {
  id: Type.String({ format: 'uuid' }),
  conta_cobranca_id: Type.String({ format: 'uuid' }),
  nsa: Type.Integer({ description: 'The file\'s sequence at the account (its proxima_remessa when made).' }),
  layout: Type.String({ enum: [...LAYOUTS_CNAB] }),
  nome_arquivo: Type.String({ description: 'The name the bank gives such a file.' }),
  sha256: Type.String({ description: 'Of the file\'s bytes, as /arquivo answers them.' }),
  registros: Type.Integer({ description: 'The file\'s lines.' }),
  cobrancas: Type.Integer({ description: 'Charges registered by it (entradas).' }),
  instrucoes: Type.Integer({ description: 'Instructions sent by it.' }),
  valor_centavos: Type.Integer({ description: 'The sum of the values its lines carry (the 240\'s lote trailer).' }),
  criado_em: Type.String({ format: 'date-time' }),
}

export const RemessaOut = Type.Object({
  ...Summary,
  itens: Type.Array(Type.Object({
    cobranca_id: Type.String({ format: 'uuid' }),
    instrucao_id: OrNull(Type.String({ format: 'uuid' })),
    nosso_numero: Type.String(),
    movimento: Type.String({ enum: ['entrada', ...INSTRUCOES], description: '`entrada`: the charge\'s registration; else the instruction.' }),
  }), { description: 'What the file carries, in its order.' }),
  fora: Type.Optional(Fora),
})

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const Params = Type.Object({ id: Type.String() })
const tags = ['cnab']

export const REMESSA_ROUTES = {
  criar: {
    method: 'POST', url: '/api/cnab/remessas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'criarRemessa', tags,
      body: Type.Object({ conta_cobranca_id: Type.String({ format: 'uuid', description: 'A collection account whose transport is `cnab`.' }) },
        { additionalProperties: false }),
      headers: Type.Object({ 'idempotency-key': Type.String({ description: 'Required: the file registers the charges it carries.' }) }),
      summary: 'Make the CNAB remessa of an account: its charges waiting for registration and its instructions pending, 240 or 400 by '
        + 'the account\'s layout, numbered with its next remessa sequence',
      response: {
        201: RemessaOut, ...refusals, ...idempotencyProblems, ...NotFound('collection account'),
        422: ValidationProblem('The body breaks the schema; or nothing waits for the bank (remessa_vazia, with `fora`: what waits and '
          + 'cannot go, and why).', ['remessa_vazia']),
        ...Conflict('The account talks to its bank by API (conta_cobranca_por_api); it waits for its confirmation '
          + '(conta_cobranca_nao_confirmada); the customer\'s CNPJ is not recorded (empresa_sem_cnpj); or the key is in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/cnab/remessas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarRemessas', tags, summary: 'The customer\'s remessas, newest first',
      querystring: Type.Object({ ...PageQuery, conta_cobranca_id: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(Type.Object(Summary)), proximo: OrNull(Type.Integer()) }), ...refusals,
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/cnab/remessas/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerRemessa', tags, params: Params, summary: 'One remessa: what it carries, its counts and its hash',
      response: { 200: RemessaOut, ...refusals, ...NotFound('remessa') },
    },
  },
  arquivo: {
    method: 'GET', url: '/api/cnab/remessas/:id/arquivo', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'arquivoRemessa', tags, params: Params,
      summary: 'The remessa\'s file, as the bank takes it: ISO-8859-1 text, CR LF line ends, as an attachment named as the bank names it',
      response: {
        200: Type.String({ description: 'The file.', 'x-media-types': ['text/plain'] }),
        ...refusals, ...NotFound('remessa'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
