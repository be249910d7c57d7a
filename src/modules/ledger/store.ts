// Reading the ledger, in the caller's tenant transaction: entries with their lines, a cedente's conta gráfica
// with its running balance, the trial balance on a day.
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { pageFrom } from '../../platform/http/api-schemas.ts'
import type { Conta, } from './accounts.ts'
import type { EntryLine } from './post.ts'
import { contasContabeis, lancamentoLinhas, lancamentos } from './tables.ts'

export type Entry = typeof lancamentos.$inferSelect & { linhas: (EntryLine & { conta: Conta })[] }

export type EntryFilter = { de?: string, ate?: string, conta?: Conta, cedenteId?: string, origemId?: string }

/** A page of entries, newest first; `before` is the previous page's `next` (an entry's `seq`). */
export async function listEntries(tx: Orm, filter: EntryFilter, page: { limit: number, before?: number }): Promise<{ items: Entry[], next: number | null }> {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(lancamentos.seq, page.before))
  if (filter.de !== undefined) where.push(gte(lancamentos.data, filter.de))
  if (filter.ate !== undefined) where.push(lte(lancamentos.data, filter.ate))
  if (filter.origemId !== undefined) where.push(eq(lancamentos.origemId, filter.origemId))
  if (filter.conta !== undefined || filter.cedenteId !== undefined) {
    const line: SQL[] = [eq(lancamentoLinhas.lancamentoId, lancamentos.id)]
    if (filter.conta !== undefined) line.push(eq(lancamentoLinhas.conta, filter.conta))
    if (filter.cedenteId !== undefined) line.push(eq(lancamentoLinhas.cedenteId, filter.cedenteId))
    where.push(sql`EXISTS (SELECT 1 FROM ${lancamentoLinhas} WHERE ${and(...line)})`)
  }
  const { items, next } = pageFrom(await tx.select().from(lancamentos).where(and(...where)).orderBy(desc(lancamentos.seq)).limit(page.limit + 1), page.limit)
  const lines = await linesOf(tx, items.map((e) => e.id))
  return { items: items.map((e) => ({ ...e, linhas: lines.get(e.id) ?? [] })), next }
}

async function linesOf(tx: Orm, ids: string[]): Promise<Map<string, Entry['linhas']>> {
  const out = new Map<string, Entry['linhas']>()
  if (!ids.length) return out
  const rows = await tx.select().from(lancamentoLinhas).where(inArray(lancamentoLinhas.lancamentoId, ids)).orderBy(asc(lancamentoLinhas.id))
  for (const r of rows) {
    const list = out.get(r.lancamentoId) ?? []
    list.push({ conta: r.conta as Conta, cedenteId: r.cedenteId, debito: r.debitoCentavos, credito: r.creditoCentavos })
    out.set(r.lancamentoId, list)
  }
  return out
}

export type StatementLine = {
  lancamentoId: string
  data: string
  historico: string
  origem: { tipo: string, id: string }
  debito: bigint
  credito: bigint
  saldo: bigint
}

export type Statement = { saldoInicial: bigint, movimentos: StatementLine[], saldoFinal: bigint }

/**
 * A cedente's conta gráfica between two days (both included): what is owed to the cedente (credits) less what it
 * owes or was paid (debits), before the first day, each movement with the balance after it, and at the end.
 */
export async function statement(tx: Orm, cedenteId: string, range: { de: string, ate: string }): Promise<Statement> {
  const mine = and(eq(lancamentoLinhas.cedenteId, cedenteId), eq(lancamentoLinhas.conta, 'conta_grafica_cedentes'))
  const [opening] = await tx.select({ saldo: sql<string>`coalesce(sum(${lancamentoLinhas.creditoCentavos} - ${lancamentoLinhas.debitoCentavos}), 0)` })
    .from(lancamentoLinhas).where(and(mine, lt(lancamentoLinhas.data, range.de)))
  const rows = await tx.select({
    lancamentoId: lancamentoLinhas.lancamentoId, data: lancamentoLinhas.data, historico: lancamentos.historico,
    origemTipo: lancamentos.origemTipo, origemId: lancamentos.origemId,
    debito: lancamentoLinhas.debitoCentavos, credito: lancamentoLinhas.creditoCentavos,
  }).from(lancamentoLinhas)
    .innerJoin(lancamentos, and(eq(lancamentos.clienteId, lancamentoLinhas.clienteId), eq(lancamentos.id, lancamentoLinhas.lancamentoId)))
    .where(and(mine, gte(lancamentoLinhas.data, range.de), lte(lancamentoLinhas.data, range.ate)))
    .orderBy(asc(lancamentoLinhas.data), asc(lancamentoLinhas.lancamentoSeq), asc(lancamentoLinhas.id))
  const saldoInicial = BigInt(opening!.saldo)
  let saldo = saldoInicial
  const movimentos = rows.map((r) => {
    saldo += r.credito - r.debito
    return { lancamentoId: r.lancamentoId, data: r.data, historico: r.historico, origem: { tipo: r.origemTipo, id: r.origemId }, debito: r.debito,
      credito: r.credito, saldo }
  })
  return { saldoInicial, movimentos, saldoFinal: saldo }
}

export type TrialBalanceRow = { conta: Conta, nome: string, natureza: 'devedora' | 'credora', debitos: bigint, creditos: bigint }

/** Every account of the chart with its debits and credits up to `data` (included), in the chart's order. */
export async function trialBalance(tx: Orm, data: string): Promise<TrialBalanceRow[]> {
  const sums = await tx.select({
    conta: lancamentoLinhas.conta,
    debitos: sql<string>`sum(${lancamentoLinhas.debitoCentavos})`,
    creditos: sql<string>`sum(${lancamentoLinhas.creditoCentavos})`,
  }).from(lancamentoLinhas).where(lte(lancamentoLinhas.data, data)).groupBy(lancamentoLinhas.conta)
  const byAccount = new Map(sums.map((s) => [s.conta, s]))
  const chart = await tx.select().from(contasContabeis).orderBy(asc(contasContabeis.ordem))
  return chart.map((c) => ({
    conta: c.codigo as Conta, nome: c.nome, natureza: c.natureza,
    debitos: BigInt(byAccount.get(c.codigo)?.debitos ?? 0), creditos: BigInt(byAccount.get(c.codigo)?.creditos ?? 0),
  }))
}
