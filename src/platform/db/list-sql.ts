// The pieces every searchable, sortable list builds its query from (issue 32 item 2), so that the search, the
// order, the page and the count are the database's work: no list is read whole into memory to be filtered.
//
// Search folds case and the accents of Portuguese in SQL (translate, no extension: `unaccent` is not in the
// embedded database), so "acao" finds "Ação". The text searched for is escaped for LIKE: a % or _ typed is
// looked for, not a wildcard.
import { and, asc, count, desc, lt, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Orm } from './database.ts'

const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñ'
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucn'

/** `text` lower-cased without the accents, as `folded` does it in SQL. */
export function fold(text: string): string {
  let out = ''
  for (const ch of text.toLowerCase()) {
    const i = ACCENTED.indexOf(ch)
    out += i < 0 ? ch : PLAIN[i]
  }
  return out
}

/** A LIKE pattern that finds `text` anywhere: its %, _ and \ are escaped (backslash is LIKE's default escape). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The expression folded as `fold` folds: compared with a folded pattern, case and accents do not count. */
export const folded = (expr: SQL | PgColumn): SQL => sql`translate(lower(${expr}), ${ACCENTED}, ${PLAIN})`

/** `expr` holds `text`, case and accents aside. */
export const holds = (expr: SQL | PgColumn, text: string): SQL => sql`${folded(expr)} LIKE ${containsPattern(fold(text))}`

/** A column a list may be sorted by, and how to read its value from a row (for the next batch's keyset). */
export type SortColumn<R> = { column: PgColumn, of: (row: R) => unknown }

/** A list's order: a column, its direction, and the unique column that breaks its ties (in the same direction). */
export type Sort<R> = { by: SortColumn<R>, tie: SortColumn<R>, desc: boolean }

/**
 * Which rows: `before` is the keyset cursor of a list's default order (the tie column, newest first, as every
 * list paged before issue 32); `offset` a page of a sorted list; `after` the last row of a batch (an export reads
 * the whole list in batches, each after the last).
 */
export type ListPage = { limit: number, before?: number, offset?: number, after?: unknown[] }

/** The order asked (one of `columns`' keys, checked by the route's schema), or the list's default; newest first by default. */
export function sortFrom<R, K extends string>(columns: Record<K, SortColumn<R>>, byDefault: K, tie: K, asked?: { key: string, desc: boolean }): Sort<R> {
  return { by: columns[(asked?.key ?? byDefault) as K], tie: columns[tie], desc: asked?.desc ?? true }
}

/** A page of a list and the count of all its filtered rows. */
export type Listed<R> = { items: R[], total: number }

/** The page read with one row more than asked (whether another page follows), then the count; one after another, as a transaction is one connection. */
export async function pageWithCount<R>(rows: (page: ListPage) => Promise<R[]>, total: () => Promise<number>, page: ListPage): Promise<Listed<R>> {
  const items = await rows({ ...page, limit: page.limit + 1 })
  return { items, total: await total() }
}

export const orderOf = <R>(s: Sort<R>): SQL[] => {
  const dir = s.desc ? desc : asc
  return s.by.column === s.tie.column ? [dir(s.tie.column)] : [dir(s.by.column), dir(s.tie.column)]
}

const param = (c: PgColumn, v: unknown): SQL => sql`${typeof v === 'bigint' ? String(v) : v}::${sql.raw(c.getSQLType())}`

/** The conditions of the page's position (`before` or `after`); an offset is the query's. */
export function positionOf<R>(s: Sort<R>, page: ListPage): SQL[] {
  if (page.before !== undefined) return [lt(s.tie.column, page.before)]
  if (!page.after) return []
  const op = sql.raw(s.desc ? '<' : '>')
  const [v, t] = page.after
  if (s.by.column === s.tie.column) return [sql`${s.tie.column} ${op} ${param(s.tie.column, t)}`]
  return [sql`(${s.by.column}, ${s.tie.column}) ${op} (${param(s.by.column, v)}, ${param(s.tie.column, t)})`]
}

/** The key `positionOf` takes to continue after `row`. */
export const keyOf = <R>(s: Sort<R>, row: R): unknown[] => [s.by.of(row), s.tie.of(row)]

/** How many rows the conditions keep: the list's `total`, counted by the database. */
export async function countWhere(tx: Orm, table: PgTable, where: SQL[]): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(table).where(and(...where))
  return Number(row?.n ?? 0)
}

/** A whole list in batches of `size`, each read after the last row of the one before (the export's read, memory flat). */
export async function* inBatches<R>(read: (after: unknown[] | undefined) => Promise<R[]>, key: (row: R) => unknown[], size: number): AsyncGenerator<R[]> {
  let after: unknown[] | undefined
  for (;;) {
    const rows = await read(after)
    if (rows.length) yield rows
    if (rows.length < size) return
    after = key(rows.at(-1)!)
  }
}

/** Only the digits of a search: a document or a number typed with its dots and dashes. */
export const digitsOf = (text: string): string => text.replace(/\D/g, '')

/** A number typed as the search ("12", "nº 12"): an operation's or an entry's number, when the text is one. */
export const numberOf = (text: string): number | undefined => (/^(?:n[º°o]?\s*)?\d{1,9}$/i.test(text) ? Number(digitsOf(text)) : undefined)
