// A product as the API (GET /api/produtos, /api/produtos/{id}) and the MCP tool listar_produtos answer it.
import type { Product } from './store.ts'

/** Its versions newest first (the list gives the latest alone); money as JSON numbers of centavos, rates as decimal strings. */
export function productView(p: Product) {
  return {
    id: p.id, id_externo: p.idExterno, nome: p.nome, versao: p.versoes[0]?.versao ?? 1, criado_em: p.criadoEm.toISOString(),
    versoes: p.versoes.map((v) => ({
      versao: v.versao, base: v.base, taxa_mensal: v.taxaMensal, taxa_ad_valorem: v.taxaAdValorem,
      tarifa_por_titulo_centavos: Number(v.tarifaPorTituloCentavos), tac_centavos: Number(v.tacCentavos), dias_float: v.diasFloat, iof: v.iof,
      motivo_isencao: v.motivoIsencao, coobrigacao: v.coobrigacao, exige_confirmacao: v.exigeConfirmacao, exige_registro: v.exigeRegistro,
      criado_em: v.criadoEm.toISOString(),
    })),
  }
}
