// The operations module's MCP tools (produto.md §2.8): simulate, list and read operations (with their títulos,
// latest quote and payment), draft one and quote it. No tool moves money: accepting, asking for payment,
// approving and recording a transfer stay with people, at /conta and through the API. Each tool answers as its
// REST twin does and needs the twin's scope; a change is audited as the route audits it, with the tool's own row.
import type { Clock } from '../../platform/lib/clock.ts'
import type { Database, Orm } from '../../platform/db/database.ts'
import { appendAudit } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { actionContext, actorOf } from '../credentials/index.ts'
import { ok, PAGE_ARGS, pageOfArgs, routeTwin, toolSchema, type Tool, type ToolCall } from '../mcp/index.ts'
import { OPERATION_ROUTES } from './definitions.ts'
import { quoteOperation } from './flow/quote.ts'
import { draftOperation } from './routes.ts'
import { CotacaoOut, OperacaoIn, titlesPageOf, OperacaoOut, OperacaoResumo, type OperacaoInT } from './schemas.ts'
import { SIMULATION_ROUTE, SimulacaoIn, simulate, type SimulacaoInT } from './simulation.ts'
import { PAINEL_ROUTE, PainelOut, readDashboard } from './dashboard.ts'
import { operationPage, type OperationListFilter } from './lists.ts'
import { readOperation, lockOperation, titleTotals } from './store.ts'
import { ESTADOS_OPERACAO } from './tables.ts'
import { operationListView, operationView, quoteView } from './views.ts'
import { Type } from 'typebox'

const Id = toolSchema({ type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', format: 'uuid' } } })
const OperationRead = toolSchema({
  type: 'object', required: ['id'], additionalProperties: false, properties: {
    id: { type: 'string', format: 'uuid' }, titulos_limite: { type: 'integer', minimum: 1, maximum: 1000 },
    titulos_apos: { type: 'integer', minimum: 1, maximum: 999_999 },
  },
})

export function operationTools(db: Database, clock: Clock, maxTitulos: number): Tool[] {
  const R = OPERATION_ROUTES
  /** A change in the customer's transaction, with the route's audit row. */
  const change = <T>(call: ToolCall, acao: 'operacao.criada' | 'operacao.cotada', work: (tx: Orm, now: Date) => Promise<{ value: T, alvoId: string }>) => {
    const c = call.credential
    const ctx = actionContext(call.by, actorOf(c), clock.now())
    return withTenant(db, c.clienteId, async (tx) => {
      const done = await work(tx, ctx.now)
      await appendAudit(tx, c.clienteId, ctx, acao, { alvoId: done.alvoId })
      return done
    })
  }
  return [
    {
      name: 'simular', title: 'Simular', twin: routeTwin(SIMULATION_ROUTE),
      description: 'Precifica títulos exatamente como uma cotação (deságio, ad valorem, tarifas, IOF, dias úteis), com as condições de um produto '
        + '(`produto_id`) ou dadas aqui, para qualquer data; nada é gravado. Como POST /api/simulacoes.',
      input: toolSchema(SimulacaoIn), output: toolSchema(Type.Object(SIMULATION_ROUTE.schema.response[200].properties)),
      run: async (args, call) => ok(await withTenant(db, call.credential.clienteId, (tx) => simulate(tx, args as SimulacaoInT, clock.now()))),
    },
    {
      name: 'listar_operacoes', title: 'Listar operações', twin: routeTwin(R.listar),
      description: 'As operações do cliente, mais novas primeiro, com a quantidade e o valor de face dos títulos; filtros `cedente_id` e `estado`.',
      input: toolSchema({
        type: 'object', additionalProperties: false, properties: {
          ...PAGE_ARGS,
          cedente_id: { type: 'string', format: 'uuid' }, estado: { type: 'string', enum: [...ESTADOS_OPERACAO] },
        },
      }),
      output: toolSchema(Type.Object({ itens: Type.Array(OperacaoResumo), proximo: Type.Union([Type.Integer(), Type.Null()]) })),
      run: async (args, call) => {
        const filter: OperationListFilter = {
          ...(typeof args.cedente_id === 'string' ? { cedenteId: args.cedente_id } : {}),
          ...(typeof args.estado === 'string' ? { estado: args.estado as OperationListFilter['estado'] } : {}),
        }
        const page = pageOfArgs(args)
        const found = await withTenant(db, call.credential.clienteId, async (tx) => {
          const list = await operationPage(tx, filter, page)
          return { ...list, totals: await titleTotals(tx, list.items.map((o) => o.id)) }
        })
        return ok({ itens: found.items.map((o) => operationListView(o, found.totals.get(o.id))), proximo: found.next })
      },
    },
    {
      name: 'ler_operacao', title: 'Ler operação', twin: routeTwin(R.ler),
      description: 'Uma operação com uma página dos seus títulos (200, ou titulos_limite até 1.000; a seguinte com titulos_apos = o '
        + 'titulos_proximo da anterior), os totais de todos, a última cotação (as linhas dessa página) e o pagamento, como GET /api/operacoes/{id}.',
      input: OperationRead, output: toolSchema(OperacaoOut),
      run: async (args, call) => {
        const page = titlesPageOf(args as { titulos_limite?: number, titulos_apos?: number })
        const found = await withTenant(db, call.credential.clienteId, (tx) => readOperation(tx, String(args.id), page))
        return found ? { ok: true, value: operationView(found), alvoId: found.id } : { ok: false, detail: 'nao_encontrado' }
      },
    },
    {
      name: 'criar_operacao', title: 'Criar operação (rascunho)', twin: routeTwin(R.criar),
      description: 'Um rascunho de operação para um cedente e um produto, com títulos opcionais; nenhum dinheiro se move. Como POST /api/operacoes.',
      input: toolSchema(OperacaoIn), output: toolSchema(OperacaoOut),
      run: async (args, call) => {
        const done = await change(call, 'operacao.criada', async (tx, now) => {
          const made = await draftOperation(tx, call.credential.clienteId, args as OperacaoInT, now, maxTitulos)
          return { value: operationView(made), alvoId: made.id }
        })
        return { ok: true, value: done.value, alvoId: done.alvoId }
      },
    },
    {
      name: 'cotar_operacao', title: 'Cotar operação', twin: routeTwin(R.cotacao),
      description: 'Precifica a operação com a última versão do produto; a nova cotação substitui a anterior. Aceitar fica com pessoas.',
      input: Id, output: toolSchema(CotacaoOut),
      run: async (args, call) => {
        const missing = new Error('no such operation')
        try {
          const done = await change(call, 'operacao.cotada', async (tx, now) => {
            const op = await lockOperation(tx, String(args.id))
            if (!op) throw missing
            return { value: quoteView(await quoteOperation(tx, op, now)), alvoId: op.id }
          })
          return { ok: true, value: done.value, alvoId: done.alvoId }
        } catch (err) {
          if (err === missing) return { ok: false, detail: 'nao_encontrado' }
          throw err
        }
      },
    },
    {
      name: 'ler_painel', title: 'Ler o painel do dia', twin: routeTwin(PAINEL_ROUTE),
      description: 'Os números do dia, somados pelo banco de dados: exposição por cedente e por sacado (as 10 maiores, com os limites), títulos '
        + 'a vencer em 7 e 30 dias e vencidos, desembolsos aguardando aprovação, aprovados e pagos hoje, operações por estado. Como GET /api/painel.',
      input: toolSchema({ type: 'object', additionalProperties: false, properties: {} }), output: toolSchema(PainelOut),
      run: async (_args, call) => ok(await withTenant(db, call.credential.clienteId, (tx) => readDashboard(tx, clock.now()))),
    },
  ]
}
