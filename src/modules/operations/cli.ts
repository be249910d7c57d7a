// `operacoes listar`: a customer's operations, for the operator's support (read only; the customer's own people
// change them). Newest first, with the títulos' count and face value.
import { parseArgs } from 'node:util'
import { customerOption } from '../../platform/cli/customer-option.ts'
import { parseOrUsage, tableRow, UsageError, type CommandContext } from '../../platform/cli/output.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { getCustomer } from '../credentials/index.ts'
import { operationPage } from './lists.ts'
import { titleTotals } from './store.ts'
import { ESTADOS_OPERACAO, type EstadoOperacao } from './tables.ts'
import { operationListView } from './views.ts'

export const OPERATIONS_HELP = `  operacoes listar --cliente ID [--estado ESTADO] [--limite N] [--json]
                               a customer's operations, newest first (estado: ${ESTADOS_OPERACAO.join(', ')}), with
                               their títulos' count and face value in centavos`

export async function operationsCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'listar') throw new UsageError(sub ? `unknown subcommand "operacoes ${sub}"` : 'operacoes needs a subcommand')
  const { values } = parseOrUsage(() => parseArgs({
    args: rest, options: { cliente: { type: 'string' }, estado: { type: 'string' }, limite: { type: 'string' }, json: { type: 'boolean' } },
  }))
  const clienteId = customerOption(values.cliente, 'operacoes listar')
  if (values.estado !== undefined && !(ESTADOS_OPERACAO as readonly string[]).includes(values.estado)) {
    throw new UsageError(`--estado is one of ${ESTADOS_OPERACAO.join(', ')}`)
  }
  const limit = values.limite === undefined ? 50 : Number(values.limite)
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limite is a whole number from 1 to 200')
  const db = await ctx.open()
  const found = await withTenant(db, clienteId, async (tx) => {
    if (!await getCustomer(tx, clienteId)) return undefined
    const page = await operationPage(tx, values.estado ? { estado: values.estado as EstadoOperacao } : {}, { limit })
    return { items: page.items, totals: await titleTotals(tx, page.items.map((o) => o.id)) }
  })
  if (!found) {
    ctx.out.error(`error: no customer has the id ${clienteId}`)
    return 1
  }
  const rows = found.items.map((o) => operationListView(o, found.totals.get(o.id)))
  if (values.json) {
    ctx.out.log(JSON.stringify(rows))
    return 0
  }
  ctx.out.log(tableRow(['ID', 'DATA', 'ESTADO', 'TÍTULOS', 'VALOR DE FACE (CENTAVOS)', 'CEDENTE']))
  for (const r of rows) ctx.out.log(tableRow([r.id, r.data_operacao, r.estado, String(r.quantidade_titulos), String(r.valor_face_centavos), r.cedente_id]))
  return 0
}
