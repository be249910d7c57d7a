// What every list of the customers' API takes besides its filters (issue 32 item 2): `busca`, `ordem` from a
// closed list of its main columns, `pagina` with `limite`, and `antes`, the keyset cursor every list had, kept for
// the default order so that no integration breaks. The answer counts the filtered rows (`total`).
import { Type, type TSchema } from 'typebox'
import type { ListPage } from '../db/list-sql.ts'
import { PageQuery } from './api-schemas.ts'
import { RequestValidationError, type ValidationItem } from './validation-errors.ts'

export const Busca = Type.Optional(Type.String({
  // No control character (a NUL is no text PostgreSQL takes), and something besides blanks.
  minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$',
  description: 'Text to look for: a name, a document (with or without its dots), a number; case and accents aside.',
}))

/** `pagina`: the page of `limite` rows, from 1. */
export const Pagina = Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'The page, from 1, of `limite` rows. Not with `antes`.' }))

/** `ordem`: one of `keys`, ascending, or descending with a leading `-`. */
export const Ordem = (keys: readonly string[], byDefault: string) => Type.Optional(Type.String({
  enum: keys.flatMap((k) => [k, `-${k}`]),
  description: `The order: a column, ascending, or with a leading - descending. Default ${byDefault}. Not with \`antes\`.`,
}))

/** The querystring of a list: the page, the search, the order, and the list's own filters. */
export const listQuery = (keys: readonly string[], byDefault: string, filters: Record<string, TSchema>) => Type.Object({
  ...PageQuery, pagina: Pagina, ordem: Ordem(keys, byDefault), busca: Busca, ...filters,
}, { additionalProperties: false })

/** A list's answer: a page of items, the cursor of the next in the default order, and how many rows the filters keep. */
export const listAnswer = (item: TSchema) => Type.Object({
  itens: Type.Array(item),
  proximo: Type.Union([Type.Integer(), Type.Null()], { description: 'The next page\'s `antes` (the default order only; null otherwise or at the end).' }),
  total: Type.Integer({ minimum: 0, description: 'How many rows the search and the filters keep, on every page.' }),
  pagina: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The page answered, when asked by `pagina`.' }),
}, { 'x-also-csv': true })

export type ListParams = { limite?: string, antes?: string, pagina?: string, ordem?: string, busca?: string }

/** The order asked: its column key and direction (undefined: the list's default). */
export function orderAsked(q: ListParams): { key: string, desc: boolean } | undefined {
  if (!q.ordem) return undefined
  return q.ordem.startsWith('-') ? { key: q.ordem.slice(1), desc: true } : { key: q.ordem, desc: false }
}

/** The page asked; `antes` belongs to the default order, so with `pagina` or `ordem` it is a 422. */
export function listPageOf(q: ListParams): ListPage & { pagina: number | null } {
  const limit = Number(q.limite ?? 50)
  if (q.antes !== undefined && (q.pagina !== undefined || q.ordem !== undefined)) {
    throw new RequestValidationError([{ type: 'value_error', loc: ['querystring', 'antes'],
      msg: 'Value error, antes pages the default order only: use pagina with ordem', input: q.antes }])
  }
  if (q.antes !== undefined) return { limit, before: Number(q.antes), pagina: null }
  const pagina = q.pagina === undefined ? null : Number(q.pagina)
  return { limit, offset: ((pagina ?? 1) - 1) * limit, pagina }
}

/** The search text, trimmed (undefined when none). */
export const searchOf = (q: ListParams): string | undefined => q.busca?.trim() || undefined

/** Each `YYYY-MM-DD` given is a real day, and each `[from, to]` pair runs forwards: the items to refuse. */
export function checkPeriods(q: Record<string, string | undefined>, pairs: [string, string][]): void {
  const items: ValidationItem[] = []
  for (const [from, to] of pairs) {
    for (const name of [from, to]) {
      const v = q[name]
      if (v !== undefined && !isRealDay(v)) items.push({ type: 'value_error', loc: ['querystring', name], msg: 'Value error, no such day', input: v })
    }
    const [a, b] = [q[from], q[to]]
    if (!items.length && a !== undefined && b !== undefined && b < a) {
      items.push({ type: 'value_error', loc: ['querystring', to], msg: `Value error, ${to} must be on or after ${from}`, input: b })
    }
  }
  if (items.length) throw new RequestValidationError(items)
}

/** A day of the calendar the database stores (year 100 on, as the calendar module's days: PostgreSQL has no year 0). */
const isRealDay = (day: string): boolean => {
  const d = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day && Number(day.slice(0, 4)) >= 100
}

/**
 * The answer of a list read with one row more than the page: the page's items, `proximo` when the order is the
 * default (keyed by `key`, so `antes` continues it) and a row follows, the count and the page asked.
 */
export function listBody<R, V>(found: { items: R[], total: number }, page: ListPage & { pagina: number | null }, byDefault: boolean,
  key: (row: R) => number, view: (row: R) => V) {
  const items = found.items.slice(0, page.limit)
  const more = found.items.length > page.limit
  return { itens: items.map(view), proximo: byDefault && more ? key(items.at(-1)!) : null, total: found.total, pagina: page.pagina }
}
