// FEBRABAN's boleto barcode (44 digits) and its linha digitável (47), produto.md §3:
//
//   barcode  BBB 9 D FFFF VVVVVVVVVV LLLLLLLLLLLLLLLLLLLLLLLLL
//            bank, currency (9 = real), general check digit (mod 11 over the other 43), fator de vencimento,
//            value in centavos, and the 25-digit campo livre each bank defines;
//   linha    BBB9L.LLLLX LLLLL.LLLLLY LLLLL.LLLLLZ D FFFFVVVVVVVVVV
//            the campo livre split 5 / 10 / 10 after bank and currency, each field closed by its mod-10 digit,
//            then the general digit, then factor and value.
import { isDigits, mod10, mod11Sum, zeroPad } from './modulos.ts'
import { fatorVencimento } from './fator.ts'

/** The largest value a barcode carries: ten digits of centavos. */
export const VALOR_MAXIMO_CENTAVOS = 9_999_999_999

/** The barcode's general check digit: 11 − (weighted sum mod 11), where 0, 10 and 11 are written 1. */
export function dvGeral(semDv: string): number {
  const dv = 11 - (mod11Sum(semDv) % 11)
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv
}

export interface Boleto {
  /** The bank's three-digit code ('341'). */
  banco: string
  /** The due date, `YYYY-MM-DD`. */
  vencimento: string
  valorCentavos: number
  /** The bank's 25 digits. */
  campoLivre: string
}

/** The 44-digit barcode of a boleto. */
export function codigoDeBarras(b: Boleto): string {
  if (!isDigits(b.banco, 3)) throw new RangeError(`not a bank code: ${b.banco}`)
  if (!isDigits(b.campoLivre, 25)) throw new RangeError('the campo livre is 25 digits')
  if (!Number.isSafeInteger(b.valorCentavos) || b.valorCentavos < 0 || b.valorCentavos > VALOR_MAXIMO_CENTAVOS) {
    throw new RangeError(`a boleto carries 0 to ${VALOR_MAXIMO_CENTAVOS} centavos, not ${b.valorCentavos}`)
  }
  const rest = zeroPad(fatorVencimento(b.vencimento), 4) + zeroPad(b.valorCentavos, 10) + b.campoLivre
  const semDv = `${b.banco}9${rest}`
  return `${b.banco}9${dvGeral(semDv)}${rest}`
}

/** The linha digitável of a 44-digit barcode, as printed: `34195.00008 01233.203189 64221.470004 5 84410000002000`. */
export function linhaDigitavel(barcode: string): string {
  if (!isDigits(barcode, 44)) throw new RangeError('a barcode is 44 digits')
  const livre = barcode.slice(19)
  const f1 = barcode.slice(0, 4) + livre.slice(0, 5)
  const f2 = livre.slice(5, 15)
  const f3 = livre.slice(15, 25)
  const c1 = `${f1}${mod10(f1)}`
  const c2 = `${f2}${mod10(f2)}`
  const c3 = `${f3}${mod10(f3)}`
  return `${c1.slice(0, 5)}.${c1.slice(5)} ${c2.slice(0, 5)}.${c2.slice(5)} ${c3.slice(0, 5)}.${c3.slice(5)} ${barcode[4]} ${barcode.slice(5, 19)}`
}

export type LinhaLida = { ok: true, codigoDeBarras: string } | { ok: false, motivo: 'formato' | 'dv_campo_1' | 'dv_campo_2' | 'dv_campo_3' | 'dv_geral' }

/**
 * A linha digitável as a person types or pastes it (dots, spaces, or none) read back into its barcode, each of its
 * four check digits verified: the first wrong one is named.
 */
export function lerLinhaDigitavel(typed: string): LinhaLida {
  const d = typed.replace(/[\s.]/g, '')
  if (!isDigits(d, 47)) return { ok: false, motivo: 'formato' }
  const fields = [d.slice(0, 9), d.slice(10, 20), d.slice(21, 31)] as const
  const dvs = [d[9], d[20], d[31]]
  for (let i = 0; i < 3; i++) {
    if (String(mod10(fields[i]!)) !== dvs[i]) return { ok: false, motivo: (['dv_campo_1', 'dv_campo_2', 'dv_campo_3'] as const)[i]! }
  }
  const barcode = d.slice(0, 4) + d[32] + d.slice(33, 47) + d.slice(4, 9) + fields[1] + fields[2]
  if (String(dvGeral(barcode.slice(0, 4) + barcode.slice(5))) !== barcode[4]) return { ok: false, motivo: 'dv_geral' }
  return { ok: true, codigoDeBarras: barcode }
}
