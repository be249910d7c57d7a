// What the borderô shows, read in one transaction of the customer's: the head (the cessionária, the cedente, the
// product's terms of the quoted version, the quote's totals, the account to be paid, the formalization) and then
// the títulos with their quote lines, read a page at a time so that no statement carries thousands of lines; the
// rows are held for the drawing (OPERACAO_MAX_TITULOS bounds them), which comes after the transaction.
import { eq } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { clientes } from '../../platform/db/schema.ts'
import { getParty } from '../origination/index.ts'
import { getProduct, type Version } from '../pricing/index.ts'
import { sacadosOf } from './flow/registers.ts'
import { getOperationRow, pageOfParts, type Operation, type Payment, type Title } from './store.ts'

export type Conta = { banco: string, agencia: string, conta: string, digito: string, titularDocumento: string }
type Line = Record<string, number | string | undefined>

export type QuoteHead = {
  versao: number, valida_ate: string, produto: { id: string, versao: number }, totais: Record<string, number>, prazo_medio_dias: string,
  taxa_efetiva_mensal: string | null, iof?: { perfil?: string },
}

export type BorderoHead = {
  op: Operation
  cessionaria: { nome: string, documento: string | null }
  cedente: { razaoSocial: string, documento: string, municipioIbge: string | null, uf: string | null }
  produto: { nome: string, versao: Version | undefined }
  quote: QuoteHead | undefined
  /** The account the net amount goes to: the payment's once asked; before, the cedente's (several: chosen when the payment is asked). */
  contas: { pedido: boolean, contas: Conta[] }
  quantidadeTitulos: number
}

export type BorderoRow = { titulo: Title, linha: Line | undefined, sacado: { razaoSocial: string, documento: string } | undefined }

/** Títulos a page: a few hundred rows and their lines in memory at once, whatever the operation holds. */
export const BORDERO_PAGE = 500

export async function borderoHead(tx: Orm, id: string): Promise<BorderoHead | undefined> {
  const op = await getOperationRow(tx, id)
  if (!op) return undefined
  // One after another: a transaction is one connection (see quoteOperation).
  const first = await pageOfParts(tx, op, { limit: 0 })
  const [cliente] = await tx.select({ nome: clientes.nome, documento: clientes.documento }).from(clientes).where(eq(clientes.id, op.clienteId))
  const cedente = (await getParty(tx, 'cedente', op.cedenteId))!
  const quote = first.cotacao?.calculo as QuoteHead | undefined
  const product = await getProduct(tx, op.produtoId, 'all')
  const versao = product?.versoes.find((v) => v.versao === (quote?.produto.versao ?? product.versoes.at(-1)?.versao))
  return {
    op, cessionaria: { nome: cliente?.nome ?? '', documento: cliente?.documento ?? null },
    cedente: { razaoSocial: cedente.razaoSocial, documento: cedente.documento, municipioIbge: cedente.municipioIbge, uf: cedente.uf },
    produto: { nome: product?.nome ?? '', versao },
    quote: quote && { ...quote, versao: first.cotacao!.versao, valida_ate: first.cotacao!.validaAte.toISOString() },
    contas: accountsToPay(first.desembolso, cedente.contas ?? []), quantidadeTitulos: first.totais.n,
  }
}

function accountsToPay(payment: Payment | null, contas: Conta[]): BorderoHead['contas'] {
  if (payment && payment.estado !== 'cancelado' && payment.estado !== 'falhou') return { pedido: true, contas: [payment] }
  const kept = contas.map((c) => ({ banco: c.banco, agencia: c.agencia, conta: c.conta, digito: c.digito, titularDocumento: c.titularDocumento }))
  return { pedido: false, contas: kept }
}

/**
 * The operation's títulos, in the order added, each with its quote line and its sacado: read a page at a time (no
 * statement reads thousands of lines at once), held whole for the drawing, which comes after the transaction.
 */
export async function borderoRows(tx: Orm, op: Operation): Promise<BorderoRow[]> {
  const rows: BorderoRow[] = []
  for (let after = 0; ;) {
    const page = await pageOfParts(tx, op, { limit: BORDERO_PAGE, after })
    const lines = new Map(((page.cotacao?.calculo as { linhas?: Line[] } | undefined)?.linhas ?? []).map((l) => [l.titulo_id as string, l]))
    const sacados = await sacadosOf(tx, page.titulos.map((t) => t.sacadoId))
    for (const t of page.titulos) rows.push({ titulo: t, linha: lines.get(t.id), sacado: sacados.get(t.sacadoId) })
    if (page.proximo === null) return rows
    after = page.proximo
  }
}
