// The back office's paths under /conta: one list, so the navigation, the forms' actions and the tests agree.
import { ACCOUNT_PATHS } from '../account/index.ts'

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
  lancamentosManuais: '/conta/razao/lancamentos-manuais',
  acaoLancamentoManual: (id: string, acao: string) => `/conta/razao/lancamentos-manuais/${id}/${acao}`,
  titulos: '/conta/titulos',
  cobrancas: '/conta/cobrancas',
  contasCobranca: '/conta/cobrancas/contas',
  novaCobranca: '/conta/cobrancas/nova',
  acaoCobranca: (id: string, acao: string) => `/conta/cobrancas/${id}/${acao}`,
  acaoContaCobranca: (id: string, acao: string) => `/conta/cobrancas/contas/${id}/${acao}`,
  instrucoes: '/conta/cobrancas/instrucoes',
  retornos: '/conta/cobrancas/retornos',
  retorno: (id: string) => `/conta/cobrancas/retornos/${id}`,
  remessas: '/conta/cobrancas/remessas',
  recompras: '/conta/cobrancas/recompras',
  acaoRecompra: (id: string, acao: string) => `/conta/cobrancas/recompras/${id}/${acao}`,
} as const

/** The back office's sections, in the navigation's order (the títulos across operations are the lists' page). */
export const SECTIONS = [
  { path: ACCOUNT_PATHS.painel, label: 'Painel' },
  { path: BACKOFFICE_PATHS.operacoes, label: 'Operações' },
  { path: '/conta/titulos', label: 'Títulos' },
  { path: BACKOFFICE_PATHS.cobrancas, label: 'Cobrança' },
  { path: BACKOFFICE_PATHS.cedentes, label: 'Cedentes' },
  { path: BACKOFFICE_PATHS.sacados, label: 'Sacados' },
  { path: BACKOFFICE_PATHS.produtos, label: 'Produtos' },
  { path: BACKOFFICE_PATHS.desembolsos, label: 'Desembolsos' },
  { path: BACKOFFICE_PATHS.razao, label: 'Razão' },
  { path: BACKOFFICE_PATHS.auditoria, label: 'Auditoria' },
  { path: BACKOFFICE_PATHS.feriados, label: 'Feriados' },
  { path: ACCOUNT_PATHS.conta, label: 'Pessoas e tokens' },
] as const
