// A remessa as the API answers it.
import type { LeftOut } from './errors.ts'
import type { itemsOf, RemessaSummary } from './store.ts'

export function remessaSummaryView(r: RemessaSummary) {
  return {
    id: r.id, conta_cobranca_id: r.contaCobrancaId, nsa: r.nsa, layout: r.layout, nome_arquivo: r.nomeArquivo, sha256: r.sha256,
    registros: r.registros, cobrancas: r.cobrancas, instrucoes: r.instrucoes, valor_centavos: r.valorCentavos, criado_em: r.criadoEm.toISOString(),
  }
}

export function remessaView(r: RemessaSummary, itens: Awaited<ReturnType<typeof itemsOf>>, fora?: readonly LeftOut[]) {
  return {
    ...remessaSummaryView(r),
    itens: itens.map((i) => ({ cobranca_id: i.cobrancaId, instrucao_id: i.instrucaoId, nosso_numero: i.nossoNumero, movimento: i.instrucao ?? 'entrada' })),
    ...(fora ? { fora } : {}),
  }
}
