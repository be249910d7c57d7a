// The collections' codes in words, as a person reads them on a page of the back office ("liquidação após a baixa",
// not liquidacao_apos_baixa): typed by the codes, so that a state or an occurrence added without its words does not
// compile. The ignored lines' reasons have their words beside their codes already (retornos/ignored.ts).
import type { Ocorrencia } from './cnab/ocorrencias.ts'
import type { EstadoCobranca } from './charges/tables.ts'
import type { ESTADOS_RECOMPRA, FORMAS_RECOMPRA, MOTIVOS_RECOMPRA } from './recompras/definitions.ts'
import type { LinhaRetorno, Retorno } from './retornos/store.ts'

export const ESTADO_COBRANCA_TEXTO: Record<EstadoCobranca, string> = {
  a_registrar: 'a registrar', registrada: 'registrada', rejeitada: 'rejeitada pelo banco', liquidada: 'liquidada', baixada: 'baixada',
}

export const OCORRENCIA_TEXTO: Record<Ocorrencia, string> = {
  entrada_confirmada: 'entrada confirmada', entrada_rejeitada: 'entrada rejeitada',
  liquidacao: 'liquidação', liquidacao_apos_baixa: 'liquidação após a baixa', liquidacao_cheque_pendente: 'liquidação por cheque a compensar',
  cheque_compensado: 'cheque compensado', cheque_devolvido: 'cheque devolvido', estorno_liquidacao: 'estorno da liquidação',
  baixa: 'baixa', protesto_enviado: 'enviado a protesto', protesto_sustado: 'protesto sustado', protestado: 'protestado',
  tarifa: 'tarifa', instrucao_confirmada: 'instrução confirmada', instrucao_rejeitada: 'instrução rejeitada', informativa: 'informativa',
}

export const RESULTADO_LINHA_TEXTO: Record<LinhaRetorno['resultado'], string> = { aplicada: 'aplicada', ignorada: 'ignorada', pendente: 'pendente' }

export const ESTADO_RETORNO_TEXTO: Record<Retorno['estado'], string> = { aplicando: 'em aplicação', aplicado: 'aplicado' }

export { IGNORADA as MOTIVO_IGNORADA_TEXTO } from './retornos/ignored.ts'

export const MOTIVO_RECOMPRA_TEXTO: Record<(typeof MOTIVOS_RECOMPRA)[number], string> = {
  vicio_de_origem: 'vício de origem', inadimplencia: 'inadimplência do sacado',
}
export const FORMA_RECOMPRA_TEXTO: Record<(typeof FORMAS_RECOMPRA)[number], string> = {
  pagamento: 'pagamento pelo cedente', compensacao: 'compensação na próxima operação',
}
export const ESTADO_RECOMPRA_TEXTO: Record<(typeof ESTADOS_RECOMPRA)[number], string> = {
  aberta: 'em aberto', paga: 'paga', compensada: 'compensada', cancelada: 'cancelada',
}

/** An instruction to the bank, as the back office's form offers it. */
export const INSTRUCAO_TEXTO: Record<'alteracao_vencimento' | 'abatimento' | 'baixa' | 'protestar' | 'sustar_protesto', string> = {
  alteracao_vencimento: 'prorrogação (novo vencimento)', abatimento: 'abatimento', baixa: 'baixa (o banco deixa de cobrar)', protestar: 'protestar',
  sustar_protesto: 'sustar o protesto',
}
