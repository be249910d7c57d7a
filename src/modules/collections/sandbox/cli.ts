// SANDBOX BANK — not a bank. `cobranca retorno-sandbox`: the retorno file the account's bank would send when the
// sacados pay the charges named (issue 33: the sandbox bank "liquidates on request and writes retorno files"), for a
// person trying the cycle where no bank is reachable. It writes a file and changes nothing: the file goes to the
// service as a bank's would (POST /api/cnab/retornos or the back office's form), and is applied as one. Refused in
// production, where a retorno comes from the bank.
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { customerOption } from '../../../platform/cli/customer-option.ts'
import { parseOrUsage, UsageError, type CommandContext } from '../../../platform/cli/output.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { centavosOf } from '../../../platform/lib/typed-reais.ts'
import { isUuid } from '../../../platform/lib/uuid.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { addDays, dayNumber } from '../../calendar/index.ts'
import type { Banco } from '../boleto/bancos.ts'
import type { Banco400 } from '../cnab/layouts/bancos400.ts'
import { retornoSandbox240, type ContaSandbox, type MovimentoSandbox } from './retorno240.ts'
import { retornoSandbox400 } from './retorno400.ts'

export const SANDBOX_RETORNO_HELP = `  cobranca retorno-sandbox --cliente ID --cobranca ID [--cobranca ID …] [--pago REAIS] [--data AAAA-MM-DD]
                               [--saida ARQUIVO]
                               SANDBOX, not in production: the retorno file the charges' bank would send when
                               their sacados pay them (an entrada confirmada first for a charge not yet
                               registered, then its liquidação, paid in full or --pago, on --data, default
                               today); all of one collection account. Send it as the bank's: POST
                               /api/cnab/retornos or the back office's Retornos page. Default file RETORNO-<NSA>.RET`

type Row = {
  id: string, estado: string, sequencia: string, vencimento: string, valor: string, titulo_numero: string, conta_id: string, banco: Banco,
  agencia: string, conta: string, conta_digito: string, convenio: string | null, carteira: string, layout: '240' | '400',
  cliente_nome: string, cliente_documento: string | null, nsa: string | null
}

export async function sandboxRetornoCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'retorno-sandbox') throw new UsageError(sub ? `unknown subcommand "cobranca ${sub}"` : 'cobranca needs a subcommand')
  const { values } = parseOrUsage(() => parseArgs({ args: rest, options: {
    cliente: { type: 'string' }, cobranca: { type: 'string', multiple: true }, pago: { type: 'string' }, data: { type: 'string' },
    saida: { type: 'string' },
  } }))
  if (ctx.config.ambiente === 'producao') {
    ctx.out.error('error: cobranca retorno-sandbox writes a sandbox file; in production (AMBIENTE=producao) a retorno comes from the bank')
    return 1
  }
  const clienteId = customerOption(values.cliente, 'cobranca retorno-sandbox')
  const ids = values.cobranca ?? []
  if (ids.length === 0) throw new UsageError('cobranca retorno-sandbox needs --cobranca ID (one or more)')
  const bad = ids.find((id) => !isUuid(id))
  if (bad) throw new UsageError(`"${bad}" is not an id (a UUID like 0b5e8c1e-4f7a-4d2b-9c3e-2a1f6d8e7b90)`)
  const pagoTyped = values.pago === undefined ? undefined : centavosOf(values.pago)
  const pago = pagoTyped === undefined ? undefined : BigInt(pagoTyped)
  if (values.pago !== undefined && (pago === undefined || pago <= 0n)) throw new UsageError('--pago is an amount in reais, like 1234,56')
  const dia = values.data ?? brasiliaDay(ctx.clock.now())
  if (dayNumber(dia) === undefined) throw new UsageError('--data is a day, AAAA-MM-DD')

  const db = await ctx.open()
  const rows = await withTenant(db, clienteId, (tx) => queryRows<Row>(tx, sql`
    SELECT c.id, c.estado, c.nosso_numero AS sequencia, c.vencimento::text AS vencimento, c.valor_centavos::text AS valor, t.numero AS titulo_numero,
           a.id AS conta_id, a.banco, a.agencia, a.conta, a.conta_digito, a.convenio, a.carteira, a.layout_cnab AS layout,
           k.nome AS cliente_nome, k.documento AS cliente_documento,
           (SELECT max(r.nsa::bigint) + 1 FROM retornos r WHERE r.conta_cobranca_id = a.id AND r.nsa ~ '^[0-9]{1,12}$')::text AS nsa
      FROM cobrancas c
      JOIN titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
      JOIN contas_cobranca a ON a.cliente_id = c.cliente_id AND a.id = c.conta_cobranca_id
      JOIN clientes k ON k.id = c.cliente_id
     WHERE c.id = ANY(${sql.param(ids.map((i) => i.toLowerCase()))}::uuid[])`))
  const missing = ids.filter((id) => !rows.some((r) => r.id === id.toLowerCase()))
  if (missing.length) {
    ctx.out.error(`error: the customer ${clienteId} has no charge ${missing.join(', ')}`)
    return 1
  }
  const first = rows[0]!
  if (rows.some((r) => r.conta_id !== first.conta_id)) {
    ctx.out.error('error: the charges are of more than one collection account; a retorno is one account\'s (run it once per account)')
    return 1
  }
  const closed = rows.find((r) => r.estado === 'liquidada' || r.estado === 'baixada' || r.estado === 'rejeitada')
  if (closed) {
    ctx.out.error(`error: the charge ${closed.id} is ${closed.estado}: the bank would not liquidate it`)
    return 1
  }
  const movimentos: MovimentoSandbox[] = rows.flatMap((r) => {
    const base = { sequencia: r.sequencia, seuNumero: r.titulo_numero.slice(0, 10), vencimento: r.vencimento, valorCentavos: BigInt(r.valor) }
    const paid = pago ?? BigInt(r.valor)
    return [
      ...(r.estado === 'a_registrar' ? [{ ...base, codigo: '02', dataOcorrencia: dia }] : []),
      { ...base, codigo: '06', pagoCentavos: paid, liquidoCentavos: paid, dataOcorrencia: dia, dataCredito: addDays(dia, 1) },
    ]
  })
  const nsa = Number(first.nsa ?? 1)
  const conta: ContaSandbox = {
    banco: first.banco, agencia: first.agencia, conta: first.conta, contaDigito: first.conta_digito, ...(first.convenio ? { convenio: first.convenio } : {}),
    inscricao: first.cliente_documento ?? '', empresa: first.cliente_nome,
  }
  const text = first.layout === '400'
    ? retornoSandbox400({ ...conta, banco: first.banco as Banco400, carteira: first.carteira }, nsa, dia, movimentos)
    : retornoSandbox240(conta, nsa, dia, movimentos)
  const file = values.saida ?? `RETORNO-${nsa}.RET`
  await writeFile(file, text, { encoding: 'latin1', flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(err.code === 'EEXIST' ? `${file} exists already: name another with --saida` : `cannot write ${file}: ${err.code ?? err.message}`)
  })
  ctx.out.log(`SANDBOX: ${file} written, retorno ${nsa} of CNAB ${first.layout} for the account ${first.conta_id}, ${rows.length} charge(s) paid on ${dia}.`)
  ctx.out.log('Send it with a token of the scope cobranca:')
  ctx.out.log(`curl -X POST "$API/api/cnab/retornos?conta_cobranca_id=${first.conta_id}" -H "Authorization: Bearer $OPERADOR" `
    + `-H 'Content-Type: text/plain' --data-binary @${file}`)
  return 0
}
