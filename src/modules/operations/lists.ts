// The operations', títulos' and payments' lists as a back office works from them (issue 32 items 2 and 3): a
// search, the filters, an order from a closed list, a page and the count of all the filtered rows, each the
// database's work; and the same rows for an export, read in batches after the last row read.
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { pageFrom } from '../../platform/http/api-schemas.ts'
import {
  countWhere, digitsOf, holds, numberOf, orderOf, pageWithCount, positionOf, sortFrom, type Listed, type ListPage, type Sort, type SortColumn,
} from '../../platform/db/list-sql.ts'
import { cedentes, sacados } from '../origination/index.ts'
import { desembolsos, operacoes, titulos, type EstadoDesembolso, type EstadoOperacao } from './tables.ts'
import type { Operation, Payment, Title } from './store.ts'

/** A cedente or sacado whose name or document holds the search (a register's columns, read by the operations' lists). */
const partyHolds = (table: typeof cedentes | typeof sacados, id: SQL | typeof titulos.sacadoId, text: string): SQL => {
  const digits = digitsOf(text)
  const doc = digits.length >= 3 ? sql` OR ${table.documento} LIKE ${`%${digits}%`}` : sql``
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${id} AND (${holds(table.razaoSocial, text)}
    OR ${holds(sql`coalesce(${table.nomeFantasia}, '')`, text)}${doc}))`
}


// ---- operações

export const OPERATION_ORDERS = ['numero', 'data_operacao', 'estado'] as const
const OP_COLUMNS: Record<(typeof OPERATION_ORDERS)[number], SortColumn<Operation>> = {
  numero: { column: operacoes.numero, of: (o) => o.numero },
  data_operacao: { column: operacoes.dataOperacao, of: (o) => o.dataOperacao },
  estado: { column: operacoes.estado, of: (o) => o.estado },
}

export type OperationListFilter = {
  cedenteId?: string, estado?: EstadoOperacao, idExterno?: string, busca?: string, de?: string, ate?: string,
}

/** The order asked, or the default: the customer's numbers, newest first (what `antes` pages). */
export const operationSort = (asked?: { key: string, desc: boolean }): Sort<Operation> => sortFrom(OP_COLUMNS, 'numero', 'numero', asked)

function operationWhere(f: OperationListFilter): SQL[] {
  const where: SQL[] = []
  if (f.cedenteId !== undefined) where.push(eq(operacoes.cedenteId, f.cedenteId))
  if (f.estado !== undefined) where.push(eq(operacoes.estado, f.estado))
  if (f.idExterno !== undefined) where.push(eq(operacoes.idExterno, f.idExterno))
  if (f.de !== undefined) where.push(gte(operacoes.dataOperacao, f.de))
  if (f.ate !== undefined) where.push(lte(operacoes.dataOperacao, f.ate))
  if (f.busca !== undefined) {
    const n = numberOf(f.busca)
    where.push(sql`(${n !== undefined ? sql`${operacoes.numero} = ${n} OR ` : sql``}${holds(sql`coalesce(${operacoes.idExterno}, '')`, f.busca)}
      OR ${partyHolds(cedentes, sql`${operacoes.cedenteId}`, f.busca)})`)
  }
  return where
}

export async function operationRows(tx: Orm, f: OperationListFilter, sort: Sort<Operation>, page: ListPage): Promise<Operation[]> {
  return tx.select().from(operacoes).where(and(...operationWhere(f), ...positionOf(sort, page))).orderBy(...orderOf(sort))
    .limit(page.limit).offset(page.offset ?? 0)
}

/** A page in the default order (the customer's numbers, newest first) after the cursor `before`, as `antes` pages: the MCP tool's and the CLI's. */
export async function operationPage(tx: Orm, f: OperationListFilter, page: { limit: number, before?: number }) {
  return pageFrom(await operationRows(tx, f, operationSort(), { ...page, limit: page.limit + 1 }), page.limit, (o) => o.numero)
}

export const operationList = (tx: Orm, f: OperationListFilter, sort: Sort<Operation>, page: ListPage): Promise<Listed<Operation>> =>
  pageWithCount((p) => operationRows(tx, f, sort, p), () => countWhere(tx, operacoes, operationWhere(f)), page)

// ---- títulos

export const TITLE_ORDERS = ['vencimento', 'emissao', 'valor_face', 'numero', 'criado'] as const
const TITLE_COLUMNS: Record<(typeof TITLE_ORDERS)[number], SortColumn<Title>> = {
  vencimento: { column: titulos.vencimento, of: (t) => t.vencimento },
  emissao: { column: titulos.emissao, of: (t) => t.emissao },
  valor_face: { column: titulos.valorFaceCentavos, of: (t) => t.valorFaceCentavos },
  numero: { column: titulos.numero, of: (t) => t.numero },
  criado: { column: titulos.seq, of: (t) => t.seq },
}

export type TitleListFilter = {
  operacaoId?: string, sacadoId?: string, cedenteId?: string, estado?: Title['estado'], confirmacaoEstado?: Title['confirmacaoEstado'],
  chaveNfe?: string, busca?: string,
  vencimentoDe?: string, vencimentoAte?: string,
}

/** The order asked, or the default: the newest first (what `antes` pages). */
export const titleSort = (asked?: { key: string, desc: boolean }): Sort<Title> => sortFrom(TITLE_COLUMNS, 'criado', 'criado', asked)

function titleWhere(f: TitleListFilter): SQL[] {
  const where: SQL[] = []
  if (f.operacaoId !== undefined) where.push(eq(titulos.operacaoId, f.operacaoId))
  if (f.sacadoId !== undefined) where.push(eq(titulos.sacadoId, f.sacadoId))
  if (f.cedenteId !== undefined) where.push(eq(titulos.cedenteId, f.cedenteId))
  if (f.estado !== undefined) where.push(eq(titulos.estado, f.estado))
  if (f.confirmacaoEstado !== undefined) where.push(eq(titulos.confirmacaoEstado, f.confirmacaoEstado))
  if (f.chaveNfe !== undefined) where.push(eq(titulos.chaveNfe, f.chaveNfe))
  if (f.vencimentoDe !== undefined) where.push(gte(titulos.vencimento, f.vencimentoDe))
  if (f.vencimentoAte !== undefined) where.push(lte(titulos.vencimento, f.vencimentoAte))
  if (f.busca !== undefined) {
    const digits = digitsOf(f.busca)
    const nfe = digits.length >= 4 ? sql` OR ${titulos.chaveNfe} LIKE ${`%${digits}%`}` : sql``
    where.push(sql`(${holds(titulos.numero, f.busca)} OR ${holds(sql`coalesce(${titulos.idExterno}, '')`, f.busca)}${nfe}
      OR ${partyHolds(sacados, sql`${titulos.sacadoId}`, f.busca)} OR ${partyHolds(cedentes, sql`${titulos.cedenteId}`, f.busca)})`)
  }
  return where
}

export async function titleRows(tx: Orm, f: TitleListFilter, sort: Sort<Title>, page: ListPage): Promise<Title[]> {
  return tx.select().from(titulos).where(and(...titleWhere(f), ...positionOf(sort, page))).orderBy(...orderOf(sort))
    .limit(page.limit).offset(page.offset ?? 0)
}

export const titleList = (tx: Orm, f: TitleListFilter, sort: Sort<Title>, page: ListPage): Promise<Listed<Title>> =>
  pageWithCount((p) => titleRows(tx, f, sort, p), () => countWhere(tx, titulos, titleWhere(f)), page)

// ---- desembolsos

export const PAYMENT_ORDERS = ['criado', 'valor', 'estado'] as const
const PAYMENT_COLUMNS: Record<(typeof PAYMENT_ORDERS)[number], SortColumn<Payment>> = {
  criado: { column: desembolsos.seq, of: (p) => p.seq },
  valor: { column: desembolsos.valorCentavos, of: (p) => p.valorCentavos },
  estado: { column: desembolsos.estado, of: (p) => p.estado },
}

export type PaymentListFilter = { estado?: EstadoDesembolso, cedenteId?: string, operacaoId?: string, busca?: string, de?: string, ate?: string }

export const paymentSort = (asked?: { key: string, desc: boolean }): Sort<Payment> => sortFrom(PAYMENT_COLUMNS, 'criado', 'criado', asked)

/** A day's start in Brasília, as an instant: a period of payments is of days in Brasília, not in UTC. */
const dayStart = (day: string): SQL => sql`(${day}::date::timestamp AT TIME ZONE 'America/Sao_Paulo')`

function paymentWhere(f: PaymentListFilter): SQL[] {
  const where: SQL[] = []
  if (f.estado !== undefined) where.push(eq(desembolsos.estado, f.estado))
  if (f.cedenteId !== undefined) where.push(eq(desembolsos.cedenteId, f.cedenteId))
  if (f.operacaoId !== undefined) where.push(eq(desembolsos.operacaoId, f.operacaoId))
  if (f.de !== undefined) where.push(sql`${desembolsos.criadoEm} >= ${dayStart(f.de)}`)
  if (f.ate !== undefined) where.push(sql`${desembolsos.criadoEm} < ${dayStart(f.ate)} + interval '1 day'`)
  if (f.busca !== undefined) {
    const n = numberOf(f.busca)
    const op = n !== undefined ? sql` OR EXISTS (SELECT 1 FROM ${operacoes} WHERE ${operacoes.id} = ${desembolsos.operacaoId} AND ${operacoes.numero} = ${n})`
      : sql``
    where.push(sql`(${holds(sql`coalesce(${desembolsos.idTransacao}, '')`, f.busca)}${op}
      OR ${partyHolds(cedentes, sql`${desembolsos.cedenteId}`, f.busca)})`)
  }
  return where
}

export async function paymentRows(tx: Orm, f: PaymentListFilter, sort: Sort<Payment>, page: ListPage): Promise<Payment[]> {
  return tx.select().from(desembolsos).where(and(...paymentWhere(f), ...positionOf(sort, page))).orderBy(...orderOf(sort))
    .limit(page.limit).offset(page.offset ?? 0)
}

export const paymentList = (tx: Orm, f: PaymentListFilter, sort: Sort<Payment>, page: ListPage): Promise<Listed<Payment>> =>
  pageWithCount((p) => paymentRows(tx, f, sort, p), () => countWhere(tx, desembolsos, paymentWhere(f)), page)
