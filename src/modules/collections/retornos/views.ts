// A retorno and its lines as the API answers them: snake_case, centavos as integers, instants in UTC.
import type { LinhaRetorno, Retorno } from './store.ts'

export function retornoView(r: Retorno) {
  return {
    id: r.id, conta_cobranca_id: r.contaCobrancaId, sha256: r.sha256, layout: r.layout, nsa: r.nsa, data_geracao: r.dataGeracao, bytes: r.bytes,
    registros: r.registros, titulos: r.titulos, estado: r.estado, aplicadas: r.aplicadas, ignoradas: r.ignoradas,
    pendentes: r.titulos - r.aplicadas - r.ignoradas, criado_em: r.criadoEm.toISOString(), concluido_em: r.concluidoEm?.toISOString() ?? null,
  }
}

export function linhaView(l: LinhaRetorno) {
  return {
    linha: l.linha, codigo: l.codigo, ocorrencia: l.ocorrencia, nosso_numero: l.nossoNumero, seu_numero: l.seuNumero, data_ocorrencia: l.dataOcorrencia,
    data_credito: l.dataCredito, motivos: l.motivos, pago_centavos: Number(l.pagoCentavos), juros_multa_centavos: Number(l.jurosMultaCentavos),
    desconto_centavos: Number(l.descontoCentavos), abatimento_centavos: Number(l.abatimentoCentavos), tarifa_centavos: Number(l.tarifaCentavos),
    resultado: l.resultado, motivo: l.motivo, detalhe: l.detalhe, cobranca_id: l.cobrancaId, titulo_id: l.tituloId, lancamento_id: l.lancamentoId,
    estornada_em: l.estornadaEm?.toISOString() ?? null,
  }
}
