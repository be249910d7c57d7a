// What a late payer owes (produto.md §3, "Receipts and late charges"), recomputed by the service to set beside what
// the bank collected: a fine once, and interest per calendar day from the day after the due date, where a due date
// that is no business day moves to the next one (a boleto due on a Saturday is paid on time on Monday). Interest is
// simple: a rate a month counts a thirtieth of it a day. A consumer's fine is at most 2 % (Código de Defesa do
// Consumidor, art. 52 §1º), whatever the charge says. Amounts are exact: fractions are decimal strings and the
// arithmetic is on integers; each part is rounded to the centavo once, half up (0,5 centavo goes up), as the banks
// print them.
import { daysBetween, nextBusinessDay, type HolidaySet } from '../calendar/index.ts'

export type Juros = { tipo: 'valor_dia', centavos: bigint } | { tipo: 'taxa_mensal', taxa: string } | { tipo: 'isento' }

export interface Atraso {
  vencimento: string
  pagoEm: string
  valorCentavos: bigint
  /** The fine as a fraction ("0.02"), and the interest. */
  multa?: string
  juros: Juros
  /** The sacado is a consumer (a person buying for themselves): the fine is capped at 2 %. */
  consumidor: boolean
  feriados?: HolidaySet
}

export interface EncargosDevidos {
  /** The day a payment is on time until. */
  vencimentoUtil: string
  diasDeJuros: number
  multaCentavos: bigint
  jurosCentavos: bigint
  totalCentavos: bigint
}

/** A decimal fraction as numerator and a power-of-ten denominator: "0.0215" is 215 / 10000. */
function fraction(s: string): { n: bigint, d: bigint } {
  const m = /^([0-9]+)(?:\.([0-9]{1,12}))?$/.exec(s)
  if (!m) throw new RangeError(`not a decimal fraction: ${s}`)
  const decimals = m[2] ?? ''
  return { n: BigInt(`${m[1]}${decimals}`), d: 10n ** BigInt(decimals.length) }
}

/** n / d rounded to the nearest integer, half up (for non-negative n and positive d). */
const roundHalfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d)

const CAP_CONSUMIDOR = fraction('0.02')

export function encargosDevidos(a: Atraso): EncargosDevidos {
  const vencimentoUtil = nextBusinessDay(a.vencimento, a.feriados)
  const dias = Math.max(0, daysBetween(vencimentoUtil, a.pagoEm))
  if (dias === 0) return { vencimentoUtil, diasDeJuros: 0, multaCentavos: 0n, jurosCentavos: 0n, totalCentavos: 0n }
  let multa = a.multa ? fraction(a.multa) : { n: 0n, d: 1n }
  if (a.consumidor && multa.n * CAP_CONSUMIDOR.d > CAP_CONSUMIDOR.n * multa.d) multa = CAP_CONSUMIDOR
  const multaCentavos = roundHalfUp(a.valorCentavos * multa.n, multa.d)
  let jurosCentavos = 0n
  if (a.juros.tipo === 'valor_dia') jurosCentavos = a.juros.centavos * BigInt(dias)
  if (a.juros.tipo === 'taxa_mensal') {
    const t = fraction(a.juros.taxa)
    jurosCentavos = roundHalfUp(a.valorCentavos * t.n * BigInt(dias), t.d * 30n)
  }
  return { vencimentoUtil, diasDeJuros: dias, multaCentavos, jurosCentavos, totalCentavos: multaCentavos + jurosCentavos }
}

export interface Divergencia { devidoCentavos: bigint, cobradoCentavos: bigint, diferencaCentavos: bigint }

/** What the bank collected in juros and multa against what was owed: undefined when they agree. */
export function divergencia(devido: EncargosDevidos, cobradoCentavos: bigint): Divergencia | undefined {
  const diferenca = cobradoCentavos - devido.totalCentavos
  return diferenca === 0n ? undefined : { devidoCentavos: devido.totalCentavos, cobradoCentavos, diferencaCentavos: diferenca }
}
