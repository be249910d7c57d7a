// A charge as the API answers it: snake_case fields, rates as decimal strings without trailing zeros, instants in UTC.
import { Decimal } from 'decimal.js'
import type { Charge, ListedCharge } from './store.ts'

/** A stored numeric as the API writes a rate: "0.02", never "0.020" nor a float. */
export const rate = (n: string): string => new Decimal(n).toFixed()

export function chargeView(c: Charge & { banco: string }) {
  return {
    id: c.id, numero: c.numero, titulo_id: c.tituloId, conta_cobranca_id: c.contaCobrancaId, banco: c.banco,
    nosso_numero: c.nossoNumeroImpresso, nosso_numero_sequencia: c.nossoNumero, codigo_barras: c.codigoBarras, linha_digitavel: c.linhaDigitavel,
    valor_centavos: c.valorCentavos, vencimento: c.vencimento,
    juros: { tipo: c.jurosTipo, valor_centavos: c.jurosValorCentavos, taxa: c.jurosTaxaMensal === null ? null : rate(c.jurosTaxaMensal) },
    multa_percentual: rate(c.multaPercentual),
    desconto: c.descontoAte === null ? null : { valor_centavos: c.descontoValorCentavos, ate: c.descontoAte },
    protesto_dias: c.protestoDias, estado: c.estado, pix_copia_e_cola: c.pixCopiaECola,
    criado_em: c.criadoEm.toISOString(), atualizado_em: c.atualizadoEm.toISOString(),
  }
}

/** A charge in the list: its título's number and its sacado beside the ids. */
export function listedChargeView(c: ListedCharge) {
  return { ...chargeView(c), titulo_numero: c.tituloNumero, sacado: { id: c.sacado.id, razao_social: c.sacado.razaoSocial } }
}
