// An instruction as the API answers it.
import type { Instruction } from './store.ts'

export function instructionView(i: Instruction) {
  return {
    id: i.id, cobranca_id: i.cobrancaId, instrucao: i.instrucao, vencimento: i.vencimento, abatimento_centavos: i.abatimentoCentavos,
    iof_centavos: i.iofCentavos, iof_dias: i.iofDias,
    transporte: i.transporte, estado: i.estado, tentativas: i.tentativas, erro: i.erro, banco_resposta: i.bancoResposta,
    criado_em: i.criadoEm.toISOString(), atualizado_em: i.atualizadoEm.toISOString(),
  }
}
