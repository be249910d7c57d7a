// The ledger's routes as data (produto.md §2.7): entries, a cedente's conta gráfica, the trial balance; scope
// `financeiro`, read only.
import { Type } from 'typebox'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { Day, guardRefusals, NotFound } from '../../platform/http/api-schemas.ts'
import { listAnswer, listQuery } from '../../platform/http/list-query.ts'
import { ValidationProblem } from '../../platform/http/schemas.ts'
import { CONTAS } from './accounts.ts'
import { ENTRY_ORDERS } from './store.ts'
import { ORIGENS } from './origins.ts'

const Int = Type.Integer()
const Uuid = Type.String({ format: 'uuid' })
const refusals = guardRefusals('financeiro')
const invalid = { 422: ValidationProblem('A day that does not exist, a range backwards, an unknown account: every item.') }

const Linha = Type.Object({
  conta: Type.String({ enum: [...CONTAS] }),
  cedente_id: Type.Union([Uuid, Type.Null()], { description: 'The cedente\'s sub-account, on conta_grafica_cedentes lines only.' }),
  debito_centavos: Int,
  credito_centavos: Int,
})

export const Lancamento = Type.Object({
  id: Uuid,
  numero: Type.Integer({ description: 'The entry\'s number within the customer, 1, 2, 3…: what `antes` pages by.' }),
  data: Type.String({ format: 'date' }),
  historico: Type.String(),
  origem: Type.Object({ tipo: Type.String({ enum: [...ORIGENS] }), id: Uuid }),
  request_id: Type.Union([Type.String(), Type.Null()], { description: 'The X-Request-ID of the request that posted it.' }),
  linhas: Type.Array(Linha),
})

export const LEDGER_ROUTES = {
  lancamentos: {
    method: 'GET', url: '/api/lancamentos', escopo: 'financeiro',
    schema: {
      hide: true, operationId: 'listarLancamentos', tags: ['contabil'],
      summary: 'Ledger entries, newest first, each with its lines; searched, filtered, sorted, paged; CSV (a row a line) with Accept: text/csv',
      querystring: listQuery(ENTRY_ORDERS, '-numero', {
        de: Type.Optional(Day), ate: Type.Optional(Day), conta: Type.Optional(Type.String({ enum: [...CONTAS] })), cedente_id: Type.Optional(Uuid),
      }),
      response: { 200: listAnswer(Lancamento), ...refusals, ...invalid },
    },
  },
  extrato: {
    method: 'GET', url: '/api/cedentes/:id/extrato', escopo: 'financeiro',
    schema: {
      hide: true, operationId: 'extratoCedente', tags: ['contabil'], summary: 'A cedente\'s conta gráfica',
      description: 'Opening balance, each movement with the running balance, closing balance. '
        + 'A balance is what the customer owes the cedente (credits less debits): the net amount of an accepted operation until it is paid. '
        + 'Defaults: `de` the first day of the current month, `ate` today.',
      params: Type.Object({ id: Type.String() }),
      querystring: Type.Object({ de: Type.Optional(Day), ate: Type.Optional(Day) }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          cedente_id: Uuid, de: Type.String({ format: 'date' }), ate: Type.String({ format: 'date' }), saldo_inicial_centavos: Int,
          movimentos: Type.Array(Type.Object({
            lancamento_id: Uuid, data: Type.String({ format: 'date' }), historico: Type.String(),
            origem: Type.Object({ tipo: Type.String(), id: Uuid }), debito_centavos: Int, credito_centavos: Int, saldo_centavos: Int,
          })),
          saldo_final_centavos: Int,
        }),
        ...refusals, ...NotFound('cedente'), ...invalid,
      },
    },
  },
  balancete: {
    method: 'GET', url: '/api/contabil/balancete', escopo: 'financeiro',
    schema: {
      hide: true, operationId: 'balancete', tags: ['contabil'], summary: 'The trial balance on a day (default today): per account, debits, credits and balance',
      querystring: Type.Object({ data: Type.Optional(Day) }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          data: Type.String({ format: 'date' }),
          contas: Type.Array(Type.Object({
            conta: Type.String(), nome: Type.String(), natureza: Type.String({ enum: ['devedora', 'credora'] }),
            debitos_centavos: Int, creditos_centavos: Int, saldo_devedor_centavos: Int, saldo_credor_centavos: Int,
          })),
          totais: Type.Object({ debitos_centavos: Int, creditos_centavos: Int, saldo_devedor_centavos: Int, saldo_credor_centavos: Int },
            { description: 'Debits equal credits, and debit balances equal credit balances.' }),
        }),
        ...refusals, ...invalid,
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
