// The retornos' routes as data (issue 33: CNAB retornos): schemas that validate, serialize and document them. The
// upload is the bank's file itself as the body; it is applied once per account (its SHA-256), so a second upload of
// the same file answers what the first did: no Idempotency-Key is needed (none is read).
import { Type } from 'typebox'
import { guardRefusals, NotFound, PageQuery } from '../../../platform/http/api-schemas.ts'
import type { RouteDefinition } from '../../../platform/http/route-document.ts'
import { Problem, ValidationProblem } from '../../../platform/http/schemas.ts'
import { OCORRENCIAS } from '../cnab/ocorrencias.ts'
import { MOTIVOS_IGNORADA } from './ignored.ts'

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const RetornoOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  conta_cobranca_id: Type.String({ format: 'uuid' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The file\'s SHA-256: a file is applied once per account.' }),
  layout: Type.String({ enum: ['240', '400'] }),
  nsa: Type.String({ description: 'The bank\'s number for the file (its header\'s NSA); empty where the layout has none (Bradesco 400).' }),
  data_geracao: OrNull(Type.String({ description: 'The day the bank wrote the file.' })),
  bytes: Type.Integer(),
  registros: Type.Integer({ description: 'The file\'s lines, headers and trailers included.' }),
  titulos: Type.Integer({ description: 'The títulos\' occurrences in the file: what is applied.' }),
  estado: Type.String({ enum: ['aplicando', 'aplicado'], description: '`aplicando` while lines wait (a large file is applied by a job); '
    + 'then `aplicado`.' }),
  aplicadas: Type.Integer(),
  ignoradas: Type.Integer({ description: 'Lines kept without being applied, each with why (GET …/linhas?resultado=ignorada).' }),
  pendentes: Type.Integer(),
  criado_em: Type.String({ format: 'date-time' }),
  concluido_em: OrNull(Type.String({ format: 'date-time' })),
})

export const LinhaOut = Type.Object({
  linha: Type.Integer({ description: 'The título\'s line in the file (its T segment in a 240).' }),
  codigo: Type.String({ description: 'The bank\'s occurrence code.' }),
  ocorrencia: Type.String({ enum: [...OCORRENCIAS], description: 'The code in the service\'s vocabulary (the same code means different '
    + 'things at different banks).' }),
  nosso_numero: Type.String(),
  seu_numero: Type.String(),
  data_ocorrencia: OrNull(Type.String()),
  data_credito: OrNull(Type.String()),
  motivos: Type.Array(Type.String(), { description: 'The bank\'s reason codes.' }),
  pago_centavos: Type.Integer(),
  juros_multa_centavos: Type.Integer(),
  desconto_centavos: Type.Integer(),
  abatimento_centavos: Type.Integer(),
  tarifa_centavos: Type.Integer(),
  resultado: Type.String({ enum: ['pendente', 'aplicada', 'ignorada'] }),
  motivo: OrNull(Type.String({ enum: [...MOTIVOS_IGNORADA], description: 'Why an ignored line was not applied.' })),
  detalhe: OrNull(Type.String()),
  cobranca_id: OrNull(Type.String({ format: 'uuid' })),
  titulo_id: OrNull(Type.String({ format: 'uuid' })),
  lancamento_id: OrNull(Type.String({ format: 'uuid', description: 'The ledger entry the line posted, if it moved money.' })),
  estornada_em: OrNull(Type.String({ format: 'date-time', description: 'When a bounced cheque or the bank\'s reversal undid this liquidation.' })),
})

const ESCOPO = 'cobranca'
const refusals = guardRefusals(ESCOPO)
const Params = Type.Object({ id: Type.String() })
const tags = ['cnab']

export const RETORNO_ROUTES = {
  enviar: {
    method: 'POST', url: '/api/cnab/retornos', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'enviarRetorno', tags,
      summary: 'Send a bank\'s CNAB retorno (240, or 400 for Bradesco and Itaú, as the account\'s layout) as the body: checked whole, then '
        + 'applied once; a large file is applied by a job (202) whose progress GET /api/cnab/retornos/{id} shows',
      querystring: Type.Object({ conta_cobranca_id: Type.String({ format: 'uuid', description: 'The collection account the file is of.' }) },
        { additionalProperties: false }),
      response: {
        200: { ...RetornoOut, description: 'The same file was sent for this account before: what became of it.' },
        201: { ...RetornoOut, description: 'Stored and applied.' },
        202: { ...RetornoOut, description: 'Stored; its lines are being applied by a job.' },
        ...refusals, ...NotFound('collection account'),
        413: Problem('The file is larger than a 240 retorno of 100,000 títulos (48.4 MB).', 'corpo_muito_grande'),
        422: ValidationProblem('The file breaks its layout or its trailers do not match its lines (arquivo_cnab_recusado, with the `linha` '
          + 'and the `motivo`): nothing of it is applied. Or a query out of shape: every item.', ['arquivo_cnab_recusado']),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/cnab/retornos', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'listarRetornos', tags, summary: 'The retornos sent, newest first',
      querystring: Type.Object({
        ...PageQuery,
        conta_cobranca_id: Type.Optional(Type.String({ format: 'uuid' })),
        estado: Type.Optional(Type.String({ enum: ['aplicando', 'aplicado'] })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(RetornoOut), proximo: OrNull(Type.Integer()) }), ...refusals,
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
  ler: {
    method: 'GET', url: '/api/cnab/retornos/:id', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'lerRetorno', tags, summary: 'One retorno and its progress', params: Params,
      response: { 200: RetornoOut, ...refusals, ...NotFound('retorno') },
    },
  },
  linhas: {
    method: 'GET', url: '/api/cnab/retornos/:id/linhas', escopo: ESCOPO,
    schema: {
      hide: true, operationId: 'linhasDoRetorno', tags, params: Params,
      summary: 'The retorno\'s títulos\' lines in the file\'s order: applied, ignored (with why) or pending; every one the filter gives as CSV '
        + 'with Accept: text/csv',
      querystring: Type.Object({
        resultado: Type.Optional(Type.String({ enum: ['pendente', 'aplicada', 'ignorada'] })),
        depois: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'Lines after this one (the previous page\'s `proximo`).' })),
        limite: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|1000)$', description: '1 to 1000; 100 by default.' })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ itens: Type.Array(LinhaOut), proximo: OrNull(Type.Integer()) }), ...refusals, ...NotFound('retorno'),
        422: ValidationProblem('A filter out of shape: every item.'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
