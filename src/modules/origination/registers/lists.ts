// The cedentes' and sacados' lists as a back office works from them (issue 32 items 2 and 3): a search by name,
// document or id_externo, the filters, an order, a page and the count, the database's work; and the same rows as
// CSV, read in batches after the last row read, each batch in its own short tenant transaction.
import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Database, Orm } from '../../../platform/db/database.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import {
  countWhere, digitsOf, holds, inBatches, keyOf, orderOf, pageWithCount, positionOf, sortFrom, type Listed, type ListPage, type Sort, type SortColumn,
} from '../../../platform/db/list-sql.ts'
import type { CsvExport } from '../../../platform/http/csv-answer.ts'
import { documentCsv, instantCsv, reaisCsv, type CsvCell } from '../../../platform/lib/csv.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { PARTY_ORDERS } from './schemas.ts'
import { withExposure, type Kind, type Party, type PartyFilter } from './store.ts'
import { cedentes, sacados } from './tables.ts'

const TABLES = { cedente: cedentes, sacado: sacados } as const

const columns = (kind: Kind): Record<(typeof PARTY_ORDERS)[number], SortColumn<Party>> => ({
  razao_social: { column: TABLES[kind].razaoSocial, of: (p) => p.razaoSocial },
  documento: { column: TABLES[kind].documento, of: (p) => p.documento },
  criado: { column: TABLES[kind].seq, of: (p) => p.seq },
})

/** The order asked, or the default: the newest first (what `antes` pages). */
export const partySort = (kind: Kind, asked?: { key: string, desc: boolean }): Sort<Party> => sortFrom(columns(kind), 'criado', 'criado', asked)

export type PartyListFilter = PartyFilter & { busca?: string }

function partyWhere(kind: Kind, f: PartyListFilter): SQL[] {
  const t = TABLES[kind]
  const where: SQL[] = []
  if (f.documento !== undefined) where.push(eq(t.documento, f.documento))
  if (f.estado !== undefined) where.push(eq(t.estado, f.estado))
  if (f.idExterno !== undefined) where.push(eq(t.idExterno, f.idExterno))
  if (f.busca !== undefined) {
    const digits = digitsOf(f.busca)
    const doc = digits.length >= 3 ? sql` OR ${t.documento} LIKE ${`%${digits}%`}` : sql``
    // A CNPJ may have letters (the alphanumeric CNPJ): the document as typed, without its marks, too.
    const typed = f.busca.replace(/[.\-/\s]/g, '').toUpperCase()
    where.push(sql`(${holds(t.razaoSocial, f.busca)} OR ${holds(sql`coalesce(${t.nomeFantasia}, '')`, f.busca)}
      OR ${holds(sql`coalesce(${t.idExterno}, '')`, f.busca)}${doc} OR ${t.documento} = ${typed})`)
  }
  return where
}

async function partyRows(tx: Orm, kind: Kind, f: PartyListFilter, sort: Sort<Party>, page: ListPage): Promise<Party[]> {
  const t = TABLES[kind]
  const rows = await tx.select().from(t).where(and(...partyWhere(kind, f), ...positionOf(sort, page))).orderBy(...orderOf(sort))
    .limit(page.limit).offset(page.offset ?? 0) as Party[]
  await withExposure(tx, kind, rows)
  return rows
}

/** A page in the default order (newest first) after the cursor `before`, as `antes` pages: the MCP tools'. */
export async function partyPage(tx: Orm, kind: Kind, f: PartyListFilter, page: { limit: number, before?: number }) {
  return pageFrom(await partyRows(tx, kind, f, partySort(kind), { ...page, limit: page.limit + 1 }), page.limit)
}

export const partyList = (tx: Orm, kind: Kind, f: PartyListFilter, sort: Sort<Party>, page: ListPage): Promise<Listed<Party>> =>
  pageWithCount((p) => partyRows(tx, kind, f, sort, p), () => countWhere(tx, TABLES[kind], partyWhere(kind, f)), page)

const BATCH = 1000

export function partiesCsv(db: Database, clienteId: string, kind: Kind, f: PartyListFilter, sort: Sort<Party>, filename: string): CsvExport<Party> {
  return {
    filename,
    header: ['Razão social', 'Nome fantasia', 'Documento', 'Tipo de pessoa', 'Limite (R$)', 'Exposição (R$)', 'Situação', 'UF', 'Município (IBGE)',
      'E-mail', 'Telefone', 'ID externo', 'Cadastrado em'],
    rows: inBatches((after) => withTenant(db, clienteId, (tx) => partyRows(tx, kind, f, sort, { limit: BATCH, ...(after ? { after } : {}) })),
      (p) => keyOf(sort, p), BATCH),
    cells: (p): CsvCell[] => [p.razaoSocial, p.nomeFantasia, documentCsv(p.documento), p.tipoPessoa === 'pf' ? 'pessoa física' : 'pessoa jurídica',
      p.limiteCentavos === null ? 'sem limite' : reaisCsv(p.limiteCentavos), reaisCsv(p.exposicao ?? 0n), p.estado, p.uf, p.municipioIbge, p.email,
      p.telefone, p.idExterno, instantCsv(p.criadoEm)],
  }
}
