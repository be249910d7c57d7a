// A back office list's state as its URL holds it (issue 32 item 2): the search, the filters, the order and the
// page, so a bookmark or a link in an e-mail opens the same view. The page's query is read against the list's
// own names only (anything else is dropped), and becomes the API's query: the API checks the values, as it does
// for an integration, and a value it refuses is shown to the person as its reason.

/** A filter of a list: a select (its options given by the page), a day, or text. */
export type FilterSpec = { name: string, label: string, kind: 'select' | 'date' }

/** A list: its API path, its filters, its sortable columns (the API's `ordem` keys), its default order. */
export type ListSpec = { api: string, filters: readonly FilterSpec[], orders: readonly string[], limite: number }

export type ListState = { busca?: string, values: ReadonlyMap<string, string>, ordem?: string, pagina: number }

const MAX_TEXT = 100

/** The state `query` asks for, of the list's own names. */
export function listStateOf(spec: ListSpec, query: Record<string, string | undefined>): ListState {
  const text = (v: string | undefined) => v?.trim().slice(0, MAX_TEXT) || undefined
  const values = new Map<string, string>()
  for (const f of spec.filters) {
    const v = text(query[f.name])
    if (v !== undefined) values.set(f.name, v)
  }
  const ordem = text(query.ordem)
  const pagina = /^[1-9][0-9]{0,5}$/.test(query.pagina ?? '') ? Number(query.pagina) : 1
  const busca = text(query.busca)
  return { ...(busca ? { busca } : {}), values, ...(ordem && spec.orders.includes(ordem.replace(/^-/, '')) ? { ordem } : {}), pagina }
}

/** The state's query string, with `change` applied (a link to another page, order or format). */
export function queryOf(state: ListState, change: { pagina?: number, ordem?: string | undefined, formato?: string } = {}): URLSearchParams {
  const q = new URLSearchParams()
  if (state.busca) q.set('busca', state.busca)
  for (const [k, v] of state.values) q.set(k, v)
  const ordem = 'ordem' in change ? change.ordem : state.ordem
  if (ordem) q.set('ordem', ordem)
  const pagina = change.pagina ?? (change.formato ? 1 : state.pagina)
  if (pagina > 1 && !change.formato) q.set('pagina', String(pagina))
  if (change.formato) q.set('formato', change.formato)
  return q
}

/** The link to `path` with the state and `change`. */
export const linkOf = (path: string, state: ListState, change: Parameters<typeof queryOf>[1] = {}): string => {
  const q = queryOf(state, change).toString()
  return q ? `${path}?${q}` : path
}

/** The API's URL for the state's page (or, for an export, for every page: no `pagina`, no `limite`). */
export function apiUrlOf(spec: ListSpec, state: ListState, exporting = false): string {
  const q = queryOf(state, exporting ? { pagina: 1 } : {})
  if (!exporting) {
    q.set('limite', String(spec.limite))
    q.set('pagina', String(state.pagina))
  }
  return `${spec.api}?${q}`
}

/** The list's answer as the API gives it. */
export type Listed<T> = { itens: T[], proximo: number | null, total: number, pagina: number | null }
