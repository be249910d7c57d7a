// The codes of the operations' states and títulos' kinds in words, as a person reads them in an export, on a page
// of the back office and in the borderô ("duplicata de serviço", not duplicata_servico): one list, typed by the
// codes, so that a state added to a table without its words does not compile.
import type { TIPOS_TITULO } from '../pricing/index.ts'
import type { ESTADOS_CONFIRMACAO, ESTADOS_DESEMBOLSO, ESTADOS_OPERACAO, ESTADOS_REGISTRO, ESTADOS_TITULO } from './tables.ts'

export const TIPO_TITULO_TEXTO: Record<(typeof TIPOS_TITULO)[number], string> = {
  duplicata_mercantil: 'duplicata mercantil', duplicata_servico: 'duplicata de serviço', cheque: 'cheque', nota_promissoria: 'nota promissória',
  ccb: 'CCB', cte: 'CT-e',
}

export const ESTADO_OPERACAO_TEXTO: Record<(typeof ESTADOS_OPERACAO)[number], string> = {
  rascunho: 'rascunho', cotada: 'cotada', aceita: 'aceita', formalizada: 'formalizada', em_desembolso: 'em desembolso', desembolsada: 'desembolsada',
  cancelada: 'cancelada',
}

export const ESTADO_TITULO_TEXTO: Record<(typeof ESTADOS_TITULO)[number], string> = {
  ofertado: 'ofertado', adquirido: 'adquirido', liquidado: 'liquidado', recomprado: 'recomprado', baixado: 'baixado', cancelado: 'cancelado',
}

export const ESTADO_CONFIRMACAO_TEXTO: Record<(typeof ESTADOS_CONFIRMACAO)[number], string> = {
  pendente: 'pendente', em_andamento: 'em andamento', confirmado: 'confirmado', parcial: 'parcial', contestado: 'contestado',
  sem_contato: 'sem contato', dispensado: 'dispensado',
}

export const ESTADO_REGISTRO_TEXTO: Record<(typeof ESTADOS_REGISTRO)[number], string> = {
  nao_consultado: 'não consultado', consulta_pendente: 'consulta pendente', livre: 'livre', impedido: 'impedido', cessao_pendente: 'cessão pendente',
  cedido: 'cedido', cessao_recusada: 'cessão recusada', quitado: 'quitado', baixado: 'baixado',
}

export const ESTADO_DESEMBOLSO_TEXTO: Record<(typeof ESTADOS_DESEMBOLSO)[number], string> = {
  aguardando_aprovacao: 'aguardando aprovação', aprovado: 'aprovado', pago: 'pago', falhou: 'falhou', cancelado: 'cancelado', recusado: 'recusado',
}

/** A code in words, or the code itself when it has none (a state added later shows, at worst, as its code). */
export const inWords = (texts: Record<string, string>, code: string): string => (Object.hasOwn(texts, code) ? texts[code as keyof typeof texts]! : code)

/** The words with a capital, as a document's field starts ("Duplicata de serviço"). */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)
