// The back office's lists (issue 32 item 2): for each, the API list it reads, its filters and its sortable
// columns (the API's own `ordem` keys), and its page's path, so the page, its export and the tests agree.
import type { ListSpec } from './list-query.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'

const PAGE = 50

export const LIST_SPECS = {
  operacoes: {
    api: '/api/operacoes', limite: PAGE, orders: ['numero', 'data_operacao', 'estado'],
    filters: [
      { name: 'cedente_id', label: 'Cedente', kind: 'select' }, { name: 'estado', label: 'Estado', kind: 'select' },
      { name: 'data_operacao_de', label: 'Data de', kind: 'date' }, { name: 'data_operacao_ate', label: 'Data até', kind: 'date' },
    ],
  },
  titulos: {
    api: '/api/titulos', limite: PAGE, orders: ['numero', 'emissao', 'vencimento', 'valor_face'],
    filters: [
      { name: 'sacado_id', label: 'Sacado', kind: 'select' }, { name: 'cedente_id', label: 'Cedente', kind: 'select' },
      { name: 'estado', label: 'Estado', kind: 'select' }, { name: 'confirmacao_estado', label: 'Confirmação', kind: 'select' },
      { name: 'vencimento_de', label: 'Vencimento de', kind: 'date' }, { name: 'vencimento_ate', label: 'Vencimento até', kind: 'date' },
    ],
  },
  cedentes: { api: '/api/cedentes', limite: PAGE, orders: ['razao_social', 'documento'], filters: [{ name: 'estado', label: 'Situação', kind: 'select' }] },
  sacados: { api: '/api/sacados', limite: PAGE, orders: ['razao_social', 'documento'], filters: [{ name: 'estado', label: 'Situação', kind: 'select' }] },
  desembolsos: {
    api: '/api/desembolsos', limite: PAGE, orders: ['criado', 'valor', 'estado'],
    filters: [
      { name: 'estado', label: 'Estado', kind: 'select' }, { name: 'cedente_id', label: 'Cedente', kind: 'select' },
      { name: 'criado_de', label: 'Pedido de', kind: 'date' }, { name: 'criado_ate', label: 'Pedido até', kind: 'date' },
    ],
  },
  lancamentos: {
    api: '/api/lancamentos', limite: PAGE, orders: ['numero', 'data'],
    filters: [{ name: 'de', label: 'De', kind: 'date' }, { name: 'ate', label: 'Até', kind: 'date' }, { name: 'conta', label: 'Conta', kind: 'select' }],
  },
} as const satisfies Record<string, ListSpec>

export type ListName = keyof typeof LIST_SPECS

/** Options of the selects every list shares: a state, in words, as the API names it. */
export const options = (texts: Record<string, string>) => Object.entries(texts).map(([value, label]) => ({ value, label }))

const PATHS: Record<string, ListName> = {
  [P.operacoes]: 'operacoes', [P.titulos]: 'titulos', [P.cedentes]: 'cedentes', [P.sacados]: 'sacados', [P.desembolsos]: 'desembolsos',
  [P.razao]: 'lancamentos',
}

/** The list a page's path shows (its export answers that list's CSV); undefined for a page with none. */
export const listOfPath = (path: string): ListSpec | undefined => (Object.hasOwn(PATHS, path) ? LIST_SPECS[PATHS[path]!] : undefined)
