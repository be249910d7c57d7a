// `contabil balancete`: a customer's trial balance on a day, for the operator's support (read only): each account's
// debits, credits and balance, and the totals, which are equal.
import { parseArgs } from 'node:util'
import { customerOption } from '../../platform/cli/customer-option.ts'
import { parseOrUsage, tableRow, UsageError, type CommandContext } from '../../platform/cli/output.ts'
import { brasiliaDay } from '../../platform/lib/brasilia-time.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { dayNumber } from '../calendar/index.ts'
import { getCustomer } from '../credentials/index.ts'
import { trialBalance } from './store.ts'
import { trialBalanceView } from './views.ts'

export const LEDGER_HELP = `  contabil balancete --cliente ID [--data AAAA-MM-DD] [--json]
                               a customer's trial balance on a day (default today, in Brasília): per account,
                               debits, credits and balance in centavos; the totals are equal`

export async function ledgerCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'balancete') throw new UsageError(sub ? `unknown subcommand "contabil ${sub}"` : 'contabil needs a subcommand')
  const { values } = parseOrUsage(() => parseArgs({ args: rest, options: { cliente: { type: 'string' }, data: { type: 'string' },
    json: { type: 'boolean' } } }))
  const clienteId = customerOption(values.cliente, 'contabil balancete')
  const data = values.data ?? brasiliaDay(ctx.clock.now())
  if (dayNumber(data) === undefined) throw new UsageError('--data is a day, AAAA-MM-DD')
  const db = await ctx.open()
  const rows = await withTenant(db, clienteId, async (tx) => (await getCustomer(tx, clienteId) ? trialBalance(tx, data) : undefined))
  if (!rows) {
    ctx.out.error(`error: no customer has the id ${clienteId}`)
    return 1
  }
  const view = trialBalanceView(data, rows)
  if (values.json) {
    ctx.out.log(JSON.stringify(view))
    return 0
  }
  ctx.out.log(`balancete de ${data} (centavos)`)
  ctx.out.log(tableRow(['CONTA', 'DÉBITOS', 'CRÉDITOS', 'SALDO DEVEDOR', 'SALDO CREDOR']))
  for (const c of view.contas) {
    ctx.out.log(tableRow([c.conta, String(c.debitos_centavos), String(c.creditos_centavos), String(c.saldo_devedor_centavos), String(c.saldo_credor_centavos)]))
  }
  const t = view.totais
  ctx.out.log(tableRow(['TOTAL', String(t.debitos_centavos), String(t.creditos_centavos), String(t.saldo_devedor_centavos), String(t.saldo_credor_centavos)]))
  return 0
}
