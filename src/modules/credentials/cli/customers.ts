// `clientes`: the commercial channel's customers. Each command acts as the operator and is audited in the
// customer's own trail; the listing comes from the one function that spans customers (operador_clientes).
import { instantWithOffset } from '../../../platform/lib/brasilia-time.ts'
import { createCustomer, listCustomers, reactivateCustomer, suspendCustomer, type Customer } from '../customers/store.ts'
import { setCustomerDocument } from '../customers/document.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { operatorContext, parseCommand, requireUuid } from './operator.ts'
import { tableRow, shown, UsageError, type CommandContext } from '../../../platform/cli/output.ts'

export const CUSTOMERS_HELP = `  clientes criar --nome NOME [--documento CNPJ] [--json]
                               a new customer, active; CNPJ with or without punctuation (its check
                               digits are verified); prints its id ({"id": …} with --json)
  clientes listar [--json]     every customer: id, name, CNPJ, state, since when (Brasília)
  clientes suspender ID [--json]
                               suspend the subscription: its credentials stop working (403)
  clientes reativar ID [--json]
                               reactivate it
  clientes documento ID --documento CNPJ [--json]
                               set or correct its CNPJ (the cessionária's, printed on every borderô)`

export async function customersCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'criar': return create(rest, ctx)
    case 'listar': return list(rest, ctx)
    case 'suspender': return changeState(rest, ctx, 'suspender')
    case 'reativar': return changeState(rest, ctx, 'reativar')
    case 'documento': return setDocument(rest, ctx)
    default: throw new UsageError(sub ? `unknown subcommand "clientes ${sub}"` : 'clientes needs a subcommand')
  }
}

async function create(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, { nome: { type: 'string' }, documento: { type: 'string' } })
  if (values.nome === undefined) throw new UsageError('clientes criar needs --nome')
  const input = values.documento === undefined ? { nome: values.nome } : { nome: values.nome, documento: values.documento }
  const customer = await createCustomer(await ctx.open(), input, operatorContext(ctx))
  ctx.out.log(values.json ? JSON.stringify({ id: customer.id }) : `created customer ${customer.id} (${shown(customer.nome)})`)
  return 0
}

async function list(argv: string[], ctx: CommandContext): Promise<number> {
  const { values } = parseCommand(argv, {})
  const customers = await listCustomers((await ctx.open()).orm)
  if (values.json) {
    ctx.out.log(JSON.stringify(customers.map(asJson)))
    return 0
  }
  if (customers.length === 0) {
    ctx.out.log('no customers')
    return 0
  }
  ctx.out.log(tableRow(['ID', 'NOME', 'DOCUMENTO', 'ESTADO', 'DESDE (BRASÍLIA)']))
  for (const c of customers) ctx.out.log(tableRow([c.id, c.nome, c.documento ?? '-', c.estado, instantWithOffset(c.estadoEm)]))
  return 0
}

async function changeState(argv: string[], ctx: CommandContext, verb: 'suspender' | 'reativar'): Promise<number> {
  const { values, positionals } = parseCommand(argv, {}, 1)
  const id = requireUuid(positionals[0], `clientes ${verb} needs the customer's id (see clientes listar)`)
  const change = await withTenant(await ctx.open(), id, (tx) => (verb === 'suspender' ? suspendCustomer : reactivateCustomer)(tx, id, operatorContext(ctx)))
  if (!change) {
    ctx.out.error(`error: no customer ${id}`)
    return 1
  }
  const { customer, changed } = change
  if (values.json) ctx.out.log(JSON.stringify({ id, estado: customer.estado, alterado: changed }))
  else if (changed) ctx.out.log(`${verb === 'suspender' ? 'suspended' : 'reactivated'} customer ${id} (${shown(customer.nome)})`)
  else ctx.out.log(`customer ${id} was ${customer.estado} already: nothing changed`)
  return 0
}

async function setDocument(argv: string[], ctx: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(argv, { documento: { type: 'string' } }, 1)
  const id = requireUuid(positionals[0], 'clientes documento needs the customer\'s id (see clientes listar)')
  if (values.documento === undefined) throw new UsageError('clientes documento needs --documento')
  const kept = await setCustomerDocument(await ctx.open(), id, values.documento, operatorContext(ctx))
  if (kept === undefined) {
    ctx.out.error(`error: no customer ${id}`)
    return 1
  }
  ctx.out.log(values.json ? JSON.stringify({ id, documento: kept }) : `customer ${id}: CNPJ ${kept}`)
  return 0
}

function asJson(c: Customer) {
  return { id: c.id, nome: c.nome, documento: c.documento, estado: c.estado, criado_em: c.criadoEm.toISOString(), estado_em: c.estadoEm.toISOString() }
}
