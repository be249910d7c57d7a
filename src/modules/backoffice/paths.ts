// The back office's paths under /conta: one list, so the navigation, the forms' actions and the tests agree.

export const BACKOFFICE_PATHS = {
  operacoes: '/conta/operacoes',
  operacao: (id: string) => `/conta/operacoes/${id}`,
  acaoOperacao: (id: string, acao: string) => `/conta/operacoes/${id}/${acao}`,
  cedentes: '/conta/cedentes',
  cedente: (id: string) => `/conta/cedentes/${id}`,
  sacados: '/conta/sacados',
  produtos: '/conta/produtos',
  feriados: '/conta/feriados',
  removerFeriado: '/conta/feriados/remover',
  desembolsos: '/conta/desembolsos',
  acaoDesembolso: (id: string, acao: string) => `/conta/desembolsos/${id}/${acao}`,
  razao: '/conta/razao',
  auditoria: '/conta/auditoria',
} as const

/** The back office's sections, in the navigation's order. */
export const SECTIONS = [
  { path: BACKOFFICE_PATHS.operacoes, label: 'Operações' },
  { path: BACKOFFICE_PATHS.desembolsos, label: 'Desembolsos' },
  { path: BACKOFFICE_PATHS.cedentes, label: 'Cedentes' },
  { path: BACKOFFICE_PATHS.sacados, label: 'Sacados' },
  { path: BACKOFFICE_PATHS.produtos, label: 'Produtos' },
  { path: BACKOFFICE_PATHS.feriados, label: 'Feriados' },
  { path: BACKOFFICE_PATHS.razao, label: 'Razão' },
  { path: BACKOFFICE_PATHS.auditoria, label: 'Auditoria' },
  { path: '/conta', label: 'Conta e tokens' },
] as const
