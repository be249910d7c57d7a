// Reading the ledger, in the caller's tenant transaction: entries with their lines, a cedente's conta gráfica
// with its running balance, the trial balance on a day.
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Database, Orm } from '../../platform/db/database.ts'
import { fixedStatement } from '../../platform/db/one-trip.ts'
import { readAllAsTenant, readAsTenant } from '../../platform/tenancy/tenancy.ts'
import { cedentes } from '../origination/index.ts'
import { pageFrom } from '../../platform/http/api-schemas.ts'
import { holds, numberOf, orderOf, positionOf, sortFrom, type ListPage, type Sort, type SortColumn } from '../../platform/db/list-sql.ts'
import type { Conta, } from './accounts.ts'
import type { EntryLine } from './post.ts'
import { contasContabeis, lancamentoLinhas, lancamentos } from './tables.ts'

export type Entry = typeof lancamentos.$inferSelect & { linhas: (EntryLine & { conta: Conta })[] }

export type EntryFilter = { de?: string, ate?: string, conta?: Conta, cedenteId?: string, origemId?: string, busca?: string }

/** A page of entries, newest first; `before` is the previous page's `next` (an entry's number within its customer). */
export async function listEntries(tx: Orm, filter: EntryFilter, page: { limit: number, before?: number }): Promise<{ items: Entry[], next: number | null }> {
  const where = entryConditions(filter, page)
  const { items, next } = pageFrom(await tx.select().from(lancamentos).where(and(...where)).orderBy(desc(lancamentos.numero)).limit(page.limit + 1),
    page.limit, (e) => e.numero)
  const lines = await linesOf(tx, items.map((e) => e.id))
  return { items: items.map((e) => ({ ...e, linhas: lines.get(e.id) ?? [] })), next }
}

/** What an entry's page shows of it (entryView). */
export type EntrySummary = Pick<Entry, 'id' | 'numero' | 'data' | 'historico' | 'origemTipo' | 'origemId' | 'requestId' | 'linhas'>

type SummaryRow = {
  id: string, numero: string, data: string, historico: string, origem_tipo: Entry['origemTipo'], origem_id: string, request_id: string | null,
  linhas: { conta: Conta, cedente_id: string | null, debito: string, credito: string }[],
}

/**
 * The entries' list for GET /api/lancamentos: the page and each entry's lines in one query (the lines aggregated as
 * JSON, amounts as text), and the count of all the filtered entries, in one round trip (readAllAsTenant), where the
 * queries through the ORM cost four times the database's own time (npm run bench). `items` holds the page's rows
 * and the one after it, if any.
 */
export async function entryList(
  db: Pick<Database, 'oneTrip'>, clienteId: string, filter: EntryFilter, sort: Sort<EntrySummary>, page: ListPage,
): Promise<{ items: EntrySummary[], total: number }> {
  const [rows, counted] = await readAllAsTenant(db, clienteId, [entriesPageQuery(filter, page, sort), entriesCountQuery(filter)]) as [
    SummaryRow[], { n: string }[],
  ]
  return { items: rows.map(summaryOf), total: Number(counted[0]!.n) }
}

/** entryList's rows as read, for an export's batch (no count). */
export async function entryRows(
  db: Pick<Database, 'oneTrip'>, clienteId: string, filter: EntryFilter, sort: Sort<EntrySummary>, page: ListPage,
): Promise<EntrySummary[]> {
  return (await readAsTenant<SummaryRow>(db, clienteId, entriesPageQuery(filter, { ...page, limit: page.limit - 1 }, sort))).map(summaryOf)
}

const summaryOf = (r: SummaryRow): EntrySummary => ({
  id: r.id, numero: Number(r.numero), data: r.data, historico: r.historico, origemTipo: r.origem_tipo, origemId: r.origem_id, requestId: r.request_id,
  linhas: r.linhas.map((l) => ({ conta: l.conta, cedenteId: l.cedente_id, debito: BigInt(l.debito), credito: BigInt(l.credito) })),
})

export const ENTRY_ORDERS = ['numero', 'data'] as const
const ENTRY_COLUMNS: Record<(typeof ENTRY_ORDERS)[number], SortColumn<EntrySummary>> = {
  numero: { column: lancamentos.numero, of: (e) => e.numero },
  data: { column: lancamentos.data, of: (e) => e.data },
}

/** The order asked, or the default: the customer's numbers, newest first (what `antes` pages). */
export const entrySort = (asked?: { key: string, desc: boolean }): Sort<EntrySummary> => sortFrom(ENTRY_COLUMNS, 'numero', 'numero', asked)

/** The page's one statement (also what the bench's pgbench baseline runs, as the same query): `page.limit + 1` rows. */
export function entriesPageQuery(filter: EntryFilter, page: ListPage, sort: Sort<EntrySummary> = entrySort()): SQL {
  const E = lancamentos
  const L = lancamentoLinhas
  const where = [...entryConditions(filter), ...positionOf(sort, page)]
  return sql`SELECT ${E.id} AS id, ${E.numero}::text AS numero, ${E.data}::text AS data,
      ${E.historico} AS historico, ${E.origemTipo} AS origem_tipo, ${E.origemId} AS origem_id, ${E.requestId} AS request_id,
      coalesce((SELECT json_agg(json_build_object('conta', ${L.conta}, 'cedente_id', ${L.cedenteId}, 'debito', ${L.debitoCentavos}::text,
          'credito', ${L.creditoCentavos}::text) ORDER BY ${L.id})
        FROM ${L} WHERE ${L.clienteId} = ${E.clienteId} AND ${L.lancamentoId} = ${E.id}), '[]'::json) AS linhas
    FROM ${E} ${where.length ? sql`WHERE ${and(...where)}` : sql``} ORDER BY ${sql.join(orderOf(sort), sql`, `)}
    LIMIT ${page.limit + 1}${page.offset ? sql` OFFSET ${page.offset}` : sql``}`
}

/** The list's count of all the filtered entries (its `total`; the bench's baseline runs it too). */
export const entriesCountQuery = (filter: EntryFilter): SQL => {
  const where = entryConditions(filter)
  return sql`SELECT count(*)::text AS n FROM ${lancamentos} ${where.length ? sql`WHERE ${and(...where)}` : sql``}`
}

function entryConditions(filter: EntryFilter, page: { before?: number } = {}): SQL[] {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(lancamentos.numero, page.before))
  if (filter.busca !== undefined) {
    const n = numberOf(filter.busca)
    where.push(sql`(${n !== undefined ? sql`${lancamentos.numero} = ${n} OR ` : sql``}${holds(lancamentos.historico, filter.busca)})`)
  }
  if (filter.de !== undefined) where.push(gte(lancamentos.data, filter.de))
  if (filter.ate !== undefined) where.push(lte(lancamentos.data, filter.ate))
  if (filter.origemId !== undefined) where.push(eq(lancamentos.origemId, filter.origemId))
  if (filter.conta !== undefined || filter.cedenteId !== undefined) {
    const line: SQL[] = [eq(lancamentoLinhas.lancamentoId, lancamentos.id)]
    if (filter.conta !== undefined) line.push(eq(lancamentoLinhas.conta, filter.conta))
    if (filter.cedenteId !== undefined) line.push(eq(lancamentoLinhas.cedenteId, filter.cedenteId))
    where.push(sql`EXISTS (SELECT 1 FROM ${lancamentoLinhas} WHERE ${and(...line)})`)
  }
  return where
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
 * Undefined when the customer has no such cedente. One round trip (readAllAsTenant): the cedente's existence,
 * the opening balance and the movements (each statement sees what was committed when it began; the ledger only
 * grows, so a movement committed between two of them is at worst missing from both); amounts and days as text,
 * which both drivers answer alike.
 */
export async function cedenteStatement(db: Pick<Database, 'oneTrip'>, clienteId: string, cedenteId: string, range: { de: string, ate: string }):
  Promise<Statement | undefined> {
  const values = { cedente: cedenteId, de: range.de, ate: range.ate }
  const [found, opening, rows] = await readAllAsTenant(db, clienteId, [CEDENTE_EXISTS(values), OPENING(values), MOVEMENTS(values)]) as [
    unknown[], { saldo: string }[], MovementRow[],
  ]
  if (!found.length) return undefined
  const saldoInicial = BigInt(opening[0]!.saldo)
  let saldo = saldoInicial
  const movimentos = rows.map((r) => {
    const debito = BigInt(r.debito)
    const credito = BigInt(r.credito)
    saldo += credito - debito
    return { lancamentoId: r.lancamento_id, data: r.data, historico: r.historico, origem: { tipo: r.origem_tipo, id: r.origem_id }, debito, credito, saldo }
  })
  return { saldoInicial, movimentos, saldoFinal: saldo }
}

type MovementRow = { lancamento_id: string, data: string, historico: string, origem_tipo: string, origem_id: string, debito: string, credito: string }
type StatementKeys = 'cedente' | 'de' | 'ate'
const L = lancamentoLinhas
const MINE = sql`${L.cedenteId} = ${sql.placeholder('cedente')} AND ${L.conta} = 'conta_grafica_cedentes'`
const CEDENTE_EXISTS = fixedStatement<StatementKeys>(sql`SELECT 1 AS ok FROM ${cedentes} WHERE ${cedentes.id} = ${sql.placeholder('cedente')}`)
const OPENING = fixedStatement<StatementKeys>(sql`SELECT coalesce(sum(${L.creditoCentavos} - ${L.debitoCentavos}), 0)::text AS saldo
  FROM ${L} WHERE ${MINE} AND ${L.data} < ${sql.placeholder('de')}`)
const MOVEMENTS = fixedStatement<StatementKeys>(sql`SELECT ${L.lancamentoId} AS lancamento_id, ${L.data}::text AS data, ${lancamentos.historico} AS historico,
    ${lancamentos.origemTipo} AS origem_tipo, ${lancamentos.origemId} AS origem_id, ${L.debitoCentavos}::text AS debito, ${L.creditoCentavos}::text AS credito
  FROM ${L} JOIN ${lancamentos} ON ${lancamentos.clienteId} = ${L.clienteId} AND ${lancamentos.id} = ${L.lancamentoId}
  WHERE ${MINE} AND ${L.data} >= ${sql.placeholder('de')} AND ${L.data} <= ${sql.placeholder('ate')}
  ORDER BY ${L.data}, ${L.lancamentoSeq}, ${L.id}`)

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
