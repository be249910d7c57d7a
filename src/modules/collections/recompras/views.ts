// A buy-back as the API answers it: snake_case, centavos as integers, instants in UTC.
import type { Recompra } from './store.ts'

export function recompraView(r: Recompra) {
  return {
    id: r.id, cedente_id: r.cedenteId, motivo: r.motivo, descricao: r.descricao, forma: r.forma, coobrigacao: r.coobrigacao, data: r.data,
    principal_centavos: r.principalCentavos, encargos_centavos: r.encargosCentavos, valor_centavos: r.valorCentavos, estado: r.estado,
    lancamento_id: r.lancamentoId, id_transacao: r.idTransacao, pago_em: r.pagoEm?.toISOString() ?? null, operacao_id: r.operacaoId,
    cancelada_em: r.canceladaEm?.toISOString() ?? null, motivo_cancelamento: r.motivoCancelamento, cancelamento_lancamento_id: r.cancelamentoLancamentoId,
    titulos: r.titulos.map((t) => ({
      titulo_id: t.tituloId, saldo_centavos: t.saldoCentavos, juros_centavos: t.jurosCentavos, multa_centavos: t.multaCentavos,
      desagio_reconhecido_centavos: t.desagioReconhecidoCentavos,
    })),
    criado_em: r.criadoEm.toISOString(), atualizado_em: r.atualizadoEm.toISOString(),
  }
}
