// The operations' routes as data (produto.md §2.5): method, path, scope, and the schemas that validate, serialize
// and document them. Routes that move money or create an obligation to pay require Idempotency-Key ([$]).
import { Type } from 'typebox'
import { Conflict, Day, guardRefusals, NotFound } from '../../platform/http/api-schemas.ts'
import { listAnswer, listQuery } from '../../platform/http/list-query.ts'
import type { RouteDefinition } from '../../platform/http/route-document.ts'
import { Problem, ValidationProblem } from '../../platform/http/schemas.ts'
import { IdempotencyKeyHeader, idempotencyProblems } from '../../platform/idempotency/schemas.ts'
import {
  AceiteIn, CotacaoOut, DesembolsoIn, DesembolsoOut, FormalizacaoIn, MotivoIn, OperacaoIn, OperacaoOut, OperacaoQuery, OperacaoResumo, PagamentoIn, TituloOut,
  TitulosAdicionadosOut, TitulosIn,
} from './schemas.ts'
import { ESTADOS_CONFIRMACAO, ESTADOS_DESEMBOLSO, ESTADOS_OPERACAO, ESTADOS_TITULO } from './tables.ts'
import { OPERATION_ORDERS, PAYMENT_ORDERS, TITLE_ORDERS } from './lists.ts'

const Uuid = Type.String({ format: 'uuid' })
const Params = Type.Object({ id: Type.String() })
const invalid = (what: string) => ({ 422: ValidationProblem(what) })
const keyed = (required: boolean) => ({
  headers: required ? Type.Object({ 'idempotency-key': Type.String({ description: 'Required: this route moves money or creates an obligation to pay.' }) })
    : IdempotencyKeyHeader,
})
const STATE_CONFLICT = 'The operation is not in a state this leaves (estado_invalido, with the current `estado`), or the Idempotency-Key is in use.'
const op = (summary: string, operationId: string) => ({ hide: true, tags: ['operacoes'], summary, operationId })
const pay = (summary: string, operationId: string) => ({ hide: true, tags: ['desembolsos'], summary, operationId })

export const OPERATION_ROUTES = {
  criar: {
    method: 'POST', url: '/api/operacoes', escopo: 'operacoes',
    schema: {
      ...op('A draft operation (borderô) for a cedente, priced later with a product', 'criarOperacao'), ...keyed(false), body: OperacaoIn,
      response: {
        201: OperacaoOut, ...guardRefusals('operacoes'), ...idempotencyProblems,
        ...invalid('A cedente, product or sacado not the customer\'s, a date before today, a título breaking a rule: every item.'),
        ...Conflict('A blocked register (cadastro_bloqueado), a duplicata (NF-e key and number) in a live operation (titulo_duplicado), '
          + 'more títulos than OPERACAO_MAX_TITULOS (limite_de_titulos), an id_externo in use, or the key in use.'),
      },
    },
  },
  listar: {
    method: 'GET', url: '/api/operacoes', escopo: 'operacoes',
    schema: {
      ...op('The customer\'s operations, newest first; searched, filtered, sorted, paged; CSV with Accept: text/csv', 'listarOperacoes'),
      querystring: listQuery(OPERATION_ORDERS, '-numero', {
        cedente_id: Type.Optional(Uuid), estado: Type.Optional(Type.String({ enum: [...ESTADOS_OPERACAO] })),
        id_externo: Type.Optional(Type.String({ pattern: '^[!-~]{1,64}$' })),
        data_operacao_de: Type.Optional(Day), data_operacao_ate: Type.Optional(Day),
      }),
      response: { 200: listAnswer(OperacaoResumo), ...guardRefusals('operacoes'), ...invalid('A filter out of shape, a period backwards: every item.') },
    },
  },
  ler: {
    method: 'GET', url: '/api/operacoes/:id', escopo: 'operacoes',
    schema: { ...op('An operation with a page of its títulos (the totals of all), the latest quote and payment', 'lerOperacao'), params: Params,
      querystring: OperacaoQuery,
      response: { 200: OperacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...invalid('A page out of shape: every item.') } },
  },
  adicionarTitulos: {
    method: 'POST', url: '/api/operacoes/:id/titulos', escopo: 'operacoes',
    schema: {
      ...op('Adds títulos to a draft', 'adicionarTitulos'), ...keyed(false), params: Params, body: TitulosIn,
      response: {
        201: TitulosAdicionadosOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems,
        ...invalid('A sacado not the customer\'s, an emissão after the operation\'s date, a due date not after it, a wrong NF-e check digit: every item.'),
        ...Conflict(`${STATE_CONFLICT} Or a blocked sacado (cadastro_bloqueado), a duplicata (NF-e key and number) in a live operation `
          + '(titulo_duplicado), or the operation would hold more títulos than OPERACAO_MAX_TITULOS (limite_de_titulos, with `limite`).'),
      },
    },
  },
  removerTitulo: {
    method: 'DELETE', url: '/api/operacoes/:id/titulos/:titulo_id', escopo: 'operacoes',
    schema: {
      ...op('Removes a título from a draft', 'removerTitulo'), ...keyed(false), params: Type.Object({ id: Type.String(), titulo_id: Type.String() }),
      response: { 200: OperacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation or título'), ...idempotencyProblems,
        ...Conflict(`${STATE_CONFLICT} Or the título was confirmed with its sacado or queried at the registry (titulo_com_verificacoes, with titulo_id): `
          + 'those records are kept, so it stays; cancel the operation not to buy it.') },
    },
  },
  cotacao: {
    method: 'POST', url: '/api/operacoes/:id/cotacao', escopo: 'operacoes',
    schema: {
      ...op('Prices the operation with the product\'s latest version; a new quote supersedes the last', 'cotarOperacao'), ...keyed(false), params: Params,
      response: {
        201: CotacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems,
        422: ValidationProblem('No títulos to quote (a list item), no IOF rate for the date (iof_sem_aliquota), or a price not positive '
          + '(cotacao_inviavel, with `motivo` and, for a line, its `indice`).', ['cotacao_inviavel', 'iof_sem_aliquota']),
        ...Conflict(`${STATE_CONFLICT} Or a blocked register (cadastro_bloqueado), or the operation's date has passed (cotacao_expirada).`),
      },
    },
  },
  aceite: {
    method: 'POST', url: '/api/operacoes/:id/aceite', escopo: 'operacoes',
    schema: {
      ...op('Accepts a quote: limits checked, títulos acquired, the acquisition posted to the ledger', 'aceitarOperacao'), ...keyed(true),
      params: Params, body: AceiteIn,
      response: {
        200: OperacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems, ...invalid('The body breaks the schema.'),
        ...Conflict(`${STATE_CONFLICT} Or cotacao_desatualizada (with the latest cotacao_versao), cotacao_expirada, operacao_antes_da_data `
          + '(accepted before data_operacao: with data_operacao and hoje), '
          + 'limite_excedido (each limit in `limites`), cadastro_bloqueado, titulos_nao_confirmados (the product asks for confirmation with the '
          + 'sacado first: each título neither confirmado nor dispensado in `titulos`, with its confirmacao_estado), registro_impedido (the product '
          + 'asks for a clean registry query: each duplicata whose last query is not livre in `titulos`, with registro_estado and registro_situacao).'),
      },
    },
  },
  formalizacao: {
    method: 'POST', url: '/api/operacoes/:id/formalizacao', escopo: 'operacoes',
    schema: {
      ...op('Records the signed assignment term: its SHA-256, when and by whom it was signed', 'formalizarOperacao'), ...keyed(false),
      params: Params, body: FormalizacaoIn,
      response: {
        200: OperacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems,
        ...invalid('A signatory\'s document with wrong check digits, a signing instant in the future: every item.'), ...Conflict(STATE_CONFLICT),
      },
    },
  },
  desembolso: {
    method: 'POST', url: '/api/operacoes/:id/desembolso', escopo: 'operacoes',
    schema: {
      ...op('Asks to pay the net amount to one of the cedente\'s accounts; another person approves it', 'pedirDesembolso'), ...keyed(true),
      params: Params, body: DesembolsoIn,
      response: {
        201: DesembolsoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems,
        ...invalid('An account not the cedente\'s, or none given when the cedente has several or none: every item.'),
        ...Conflict(`${STATE_CONFLICT} Or pagamento_fora_da_data: asked on a day other than data_operacao (with data_operacao and data_pagamento), `
          + 'the cedente is blocked (cadastro_bloqueado), or the account was added after the registration and no second person has '
          + 'confirmed it (conta_bancaria_nao_confirmada, with conta_id), or, under a product that asks for the registry, a duplicata\'s '
          + 'assignment is not registered yet (registro_impedido, each in `titulos` with registro_estado).'),
      },
    },
  },
  bordero: {
    method: 'GET', url: '/api/operacoes/:id/bordero', escopo: 'operacoes',
    schema: {
      ...op('The borderô as a document: HTML to print, Markdown with Accept: text/markdown, a PDF to sign with Accept: application/pdf '
        + '(or formato=pdf|md|html, for a link)', 'borderoOperacao'), params: Params,
      querystring: Type.Object({ formato: Type.Optional(Type.String({ enum: ['pdf', 'md', 'html'], description: 'Chooses the form over Accept.' })) },
        { additionalProperties: false }),
      response: {
        200: Type.String({ description: 'The borderô: the parties, the operation and the product\'s terms, each título with its price, the totals, '
          + 'the account to be paid, the formalization and the signature lines; instants in Brasília time.',
          'x-media-types': ['text/html', 'text/markdown', 'application/pdf'] }),
        ...invalid('A formato out of the list.'),
        ...guardRefusals('operacoes'), ...NotFound('operation'),
      },
    },
  },
  cancelamento: {
    method: 'POST', url: '/api/operacoes/:id/cancelamento', escopo: 'operacoes',
    schema: {
      ...op('Cancels an operation before it is paid; after acceptance, posts the exact reversal and frees the títulos', 'cancelarOperacao'), ...keyed(false),
      params: Params, body: MotivoIn,
      response: {
        200: OperacaoOut, ...guardRefusals('operacoes'), ...NotFound('operation'), ...idempotencyProblems, ...invalid('The body breaks the schema.'),
        ...Conflict(`${STATE_CONFLICT} An approved payment must fail first (its \`desembolso\` is named).`),
      },
    },
  },
  titulos: {
    method: 'GET', url: '/api/titulos', escopo: 'operacoes',
    schema: {
      hide: true, tags: ['titulos'], operationId: 'listarTitulos',
      summary: 'The customer\'s títulos across operations, newest first; searched, filtered, sorted, paged; CSV with Accept: text/csv',
      querystring: listQuery(TITLE_ORDERS, '-criado', {
        operacao_id: Type.Optional(Uuid), sacado_id: Type.Optional(Uuid), cedente_id: Type.Optional(Uuid),
        estado: Type.Optional(Type.String({ enum: [...ESTADOS_TITULO] })),
        confirmacao_estado: Type.Optional(Type.String({ enum: [...ESTADOS_CONFIRMACAO] })), chave_nfe: Type.Optional(Type.String({ pattern: '^[0-9]{44}$' })),
        vencimento_de: Type.Optional(Day), vencimento_ate: Type.Optional(Day),
      }),
      response: { 200: listAnswer(TituloOut), ...guardRefusals('operacoes'), ...invalid('A filter out of shape, a period backwards: every item.') },
    },
  },
  titulo: {
    method: 'GET', url: '/api/titulos/:id', escopo: 'operacoes',
    schema: { hide: true, tags: ['titulos'], operationId: 'lerTitulo', summary: 'A título', params: Params,
      response: { 200: TituloOut, ...guardRefusals('operacoes'), ...NotFound('título') } },
  },
  desembolsos: {
    method: 'GET', url: '/api/desembolsos', escopo: 'operacoes',
    schema: {
      ...pay('The customer\'s payments, newest first (estado=aguardando_aprovacao: what waits for an approver); searched, filtered, sorted, paged; '
        + 'CSV with Accept: text/csv', 'listarDesembolsos'),
      querystring: listQuery(PAYMENT_ORDERS, '-criado', {
        estado: Type.Optional(Type.String({ enum: [...ESTADOS_DESEMBOLSO] })), cedente_id: Type.Optional(Uuid), operacao_id: Type.Optional(Uuid),
        criado_de: Type.Optional(Day), criado_ate: Type.Optional(Day),
      }),
      response: { 200: listAnswer(DesembolsoOut), ...guardRefusals('operacoes'), ...invalid('A filter out of shape, a period backwards: every item.') },
    },
  },
  lerDesembolso: {
    method: 'GET', url: '/api/desembolsos/:id', escopo: 'operacoes',
    schema: { ...pay('A payment', 'lerDesembolso'), params: Params, response: { 200: DesembolsoOut, ...guardRefusals('operacoes'), ...NotFound('payment') } },
  },
  aprovacao: {
    method: 'POST', url: '/api/desembolsos/:id/aprovacao', escopo: 'aprovacao',
    schema: {
      ...pay('A second person approves the payment', 'aprovarDesembolso'), ...keyed(true), params: Params,
      response: {
        200: DesembolsoOut, ...guardRefusals('aprovacao'), ...NotFound('payment'), ...idempotencyProblems,
        403: Problem('The scope aprovacao is missing, the role does not reach it (papel_insuficiente), or the approver asked for the payment '
          + 'or is a token with no person (aprovacao_pelo_mesmo_usuario).', 'aprovacao_pelo_mesmo_usuario'),
        ...Conflict('The payment is not waiting for approval (estado_invalido, with its `estado`), it is not the operation\'s date '
          + '(pagamento_fora_da_data, with data_operacao and data_pagamento), the cedente is blocked (cadastro_bloqueado), the payment\'s '
          + 'account is no longer a confirmed account of the cedente (conta_bancaria_nao_confirmada), a duplicata\'s assignment is not '
          + 'registered (registro_impedido, under a product that asks for the registry), or the key is in use.'),
      },
    },
  },
  pagamento: {
    method: 'POST', url: '/api/desembolsos/:id/pagamento', escopo: 'financeiro',
    schema: {
      ...pay('Records the transfer made; posts it to the ledger; the operation is desembolsada', 'registrarPagamento'), ...keyed(true),
      params: Params, body: PagamentoIn,
      response: {
        200: DesembolsoOut, ...guardRefusals('financeiro'), ...NotFound('payment'), ...idempotencyProblems,
        ...invalid('A payment instant in the future or before the approval: every item.'),
        ...Conflict('The payment is not approved (estado_invalido, with its `estado`), pago_em is on a day other than the operation\'s '
          + '(pagamento_fora_da_data, with data_operacao and data_pagamento: cancel the operation and make it again for the new day), the '
          + 'cedente is blocked (cadastro_bloqueado), the payment\'s account is no longer a confirmed account of the cedente '
          + '(conta_bancaria_nao_confirmada), id_transacao is recorded for another payment (id_transacao_em_uso, with desembolso_id), '
          + 'or the key is in use.'),
      },
    },
  },
  falha: {
    method: 'POST', url: '/api/desembolsos/:id/falha', escopo: 'financeiro',
    schema: {
      ...pay('Records that the transfer failed; the operation may ask again', 'registrarFalhaDesembolso'), ...keyed(false), params: Params, body: MotivoIn,
      response: {
        200: DesembolsoOut, ...guardRefusals('financeiro'), ...NotFound('payment'), ...idempotencyProblems, ...invalid('The body breaks the schema.'),
        ...Conflict('The payment is not approved (estado_invalido, with its `estado`), pago_em is on a day other than the operation\'s '
          + '(pagamento_fora_da_data, with data_operacao and data_pagamento: cancel the operation and make it again for the new day), the '
          + 'cedente is blocked (cadastro_bloqueado), the payment\'s account is no longer a confirmed account of the cedente '
          + '(conta_bancaria_nao_confirmada), id_transacao is recorded for another payment (id_transacao_em_uso, with desembolso_id), '
          + 'or the key is in use.'),
      },
    },
  },
  recusa: {
    method: 'POST', url: '/api/desembolsos/:id/recusa', escopo: 'aprovacao',
    schema: {
      ...pay('A second person refuses the payment, with a reason; nothing is posted and the operation may ask again', 'recusarDesembolso'),
      ...keyed(true), params: Params, body: MotivoIn,
      response: {
        200: DesembolsoOut, ...guardRefusals('aprovacao'), ...NotFound('payment'), ...idempotencyProblems, ...invalid('The body breaks the schema.'),
        403: Problem('The scope aprovacao is missing, the role does not reach it (papel_insuficiente), or the refuser asked for the payment '
          + 'or is a token with no person (aprovacao_pelo_mesmo_usuario): the approval\'s two-person rule.', 'aprovacao_pelo_mesmo_usuario'),
        ...Conflict('The payment is not waiting for approval (estado_invalido, with its `estado`), or the key is in use.'),
      },
    },
  },
} as const satisfies Record<string, RouteDefinition>
