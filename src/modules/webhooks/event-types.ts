// The events a webhook may ask for (issue 34): each written by the database in the transaction of its change
// (migrations 0048 to 0050), or by the job that finds títulos past due (overdue.ts). An endpoint asks for types, a family
// (`cobranca.*`) or everything (`*`).
export const EVENT_TYPES = [
  'operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada', 'operacao.em_desembolso', 'operacao.desembolsada',
  'operacao.cancelada', 'operacao.reaberta',
  'desembolso.solicitado', 'desembolso.aprovado', 'desembolso.recusado', 'desembolso.pago', 'desembolso.falhou', 'desembolso.cancelado',
  'cobranca.criada', 'cobranca.registrada', 'cobranca.rejeitada', 'cobranca.liquidada', 'cobranca.baixada',
  'titulo.liquidado', 'titulo.vencido',
  'cnab.retorno_aplicado',
  'confirmacao.em_andamento', 'confirmacao.confirmado', 'confirmacao.parcial', 'confirmacao.contestado', 'confirmacao.sem_contato',
  'confirmacao.dispensado',
  'registro.consulta_pendente', 'registro.livre', 'registro.impedido', 'registro.cessao_pendente', 'registro.cedido', 'registro.cessao_recusada',
  'registro.quitado', 'registro.baixado',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

export const EVENT_FAMILIES = [...new Set(EVENT_TYPES.map((t) => t.split('.')[0]!))]

/** What an endpoint may list: a type, a family's `x.*`, or `*`. */
export const SUBSCRIBABLE: readonly string[] = ['*', ...EVENT_FAMILIES.map((f) => `${f}.*`), ...EVENT_TYPES]
