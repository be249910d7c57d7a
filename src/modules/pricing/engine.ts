// Prices a borderô exactly as produto.md §2.6 says: every component of every line rounded to the centavo on its
// own (half up), totals as sums of the rounded lines. Pure: the caller gives the terms, the títulos with their
// sacado's holidays, and the IOF table; a quote and a simulation are the same computation.
import { daysBetween } from '../calendar/index.ts'
import { nextBusinessDay, nationalHolidaysBetween, type HolidaySet } from '../calendar/index.ts'
import type { Holiday } from '../calendar/index.ts'
import { compoundDesagio, decimalFraction, fixedFraction, roundHalfUp } from './exact.ts'
import { effectiveProfile, rateOn, type IofRate, type PerfilIof } from './iof-rates.ts'
import { effectiveMonthlyRate } from './effective-rate.ts'
import { DomainError } from '../../platform/http/domain-error.ts'

export const TIPOS_TITULO = ['duplicata_mercantil', 'duplicata_servico', 'cheque', 'nota_promissoria', 'ccb', 'cte'] as const
export type TipoTitulo = typeof TIPOS_TITULO[number]

export type Base = 'simples_30' | 'composta_30'

export type Terms = {
  base: Base
  taxaMensal: string
  taxaAdValorem: string
  tarifaPorTituloCentavos: bigint
  tacCentavos: bigint
  diasFloat: Partial<Record<TipoTitulo, number>>
  iof: 'calcular' | 'isento'
}

export type TituloToPrice = {
  tipo: TipoTitulo
  vencimento: string
  valorFaceCentavos: bigint
  /** The customer's own holidays for this título's sacado (its municipality and state). */
  feriadosLocais: HolidaySet
  /** Descriptions of those holidays, for the quote's list of the holidays it used. */
  descreverFeriadoLocal?: (data: string) => string | undefined
}

export type PricingInput = {
  dataOperacao: string
  perfilIof: PerfilIof
  terms: Terms
  titulos: readonly TituloToPrice[]
  iofTable: readonly IofRate[]
  /** The cedente's buy-backs this operation compensates (issue 33): deducted from the net paid, not a cost of the purchase. */
  compensacoesCentavos?: bigint
}

export type Line = {
  vencimento: string
  vencimentoUtil: string
  diasDesconto: number
  diasIof: number
  desagio: bigint
  adValorem: bigint
  tarifa: bigint
  iofBase: bigint
  iofDiario: bigint
  iofAdicional: bigint
  iof: bigint
  precoCompra: bigint
}

export type Totals = {
  valorFace: bigint
  desagio: bigint
  adValorem: bigint
  tarifas: bigint
  tac: bigint
  iof: bigint
  compensacoes: bigint
  valorLiquido: bigint
}

export type Pricing = {
  linhas: Line[]
  totais: Totals
  prazoMedioDias: string
  /** Null when no monthly rate below a million turns the face values into the net amount (a net not positive, or absurdly small). */
  taxaEfetivaMensal: string | null
  /** The IOF row used (null when the operation owes none) and the profile it was chosen for. */
  iof: { perfil: PerfilIof, aliquota: IofRate | null }
  feriados: Holiday[]
}

/** No IOF row covers the operation's date for the profile: a gap in the table is refused, never guessed. */
export class MissingIofRate extends DomainError<'iof_sem_aliquota'> {
  readonly perfil: string
  readonly data: string
  constructor(perfil: string, data: string) {
    super('iof_sem_aliquota', `no IOF rate for ${perfil} on ${data}`)
    this.perfil = perfil
    this.data = data
  }
}

/**
 * Why a priced borderô cannot be bought, or undefined: a título whose price is not positive (its deságio and costs
 * eat its face value: a rate or a term no one would sign) or a net amount that is not positive (the tarifa de cadastro exceeds
 * what is paid). Prices are still computed for them, so a simulation can show why.
 */
export type PricingProblem = { motivo: 'preco_nao_positivo', indice: number } | { motivo: 'liquido_nao_positivo' }

export function pricingProblem(p: Pricing): PricingProblem | undefined {
  const indice = p.linhas.findIndex((l) => l.precoCompra <= 0n)
  if (indice >= 0) return { motivo: 'preco_nao_positivo', indice }
  return p.totais.valorLiquido <= 0n ? { motivo: 'liquido_nao_positivo' } : undefined
}

/** IOF counts at most a year of days (Decreto 6.306/2007 art. 7 § 1). */
export const IOF_MAX_DAYS = 365

/**
 * Each line's deságio for its day count n. simples_30 is VF · i · n / 30: a fraction of integers, exact on BigInt.
 * composta_30 is VF · (1 − (1 + i)^(−n/30)): rational for some n and rates, irrational for the rest, computed so
 * that its rounding is always the exact value's (exact.ts).
 */
function desagioOf(terms: Terms): (vf: bigint, n: number) => bigint {
  if (terms.base === 'composta_30') return compoundDesagio(terms.taxaMensal)
  const i = decimalFraction(terms.taxaMensal)
  return (vf, n) => roundHalfUp(vf * i.num * BigInt(n), i.den * 30n)
}

/** VF · rate (times days), rounded half up: ad valorem and both parts of IOF are products of decimals, exact on BigInt. */
const times = (rate: string): (base: bigint, days?: number) => bigint => {
  const r = decimalFraction(rate)
  return (base, days = 1) => roundHalfUp(base * r.num * BigInt(days), r.den)
}

/** IOF's daily part on `base` for `days` at `taxaDiaria`, rounded as a quote rounds it (an extension's IOF complementar). */
export const dailyIof = (taxaDiaria: string, base: bigint, days: number): bigint => times(taxaDiaria)(base, days)

export function price(input: PricingInput): Pricing {
  const { dataOperacao: d0, terms } = input
  const totalFace = input.titulos.reduce((s, t) => s + t.valorFaceCentavos, 0n)
  const perfil = terms.iof === 'isento' ? 'isento' : effectiveProfile(input.perfilIof, totalFace)
  const aliquota = perfil === 'isento' ? null : rateOn(input.iofTable, perfil, d0) ?? null
  if (perfil !== 'isento' && aliquota === null) throw new MissingIofRate(perfil, d0)
  const desagio = desagioOf(terms)
  const adValorem = times(terms.taxaAdValorem)
  const iofDaily = aliquota ? times(aliquota.taxaDiaria) : undefined
  const iofExtra = aliquota ? times(aliquota.taxaAdicional) : undefined
  const feriados = new Map<string, Holiday>()

  const linhas = input.titulos.map((t): Line => {
    const vencimentoUtil = nextBusinessDay(t.vencimento, t.feriadosLocais)
    if (vencimentoUtil !== t.vencimento) collectHolidays(feriados, t, vencimentoUtil)
    const n = daysBetween(d0, vencimentoUtil) + (terms.diasFloat[t.tipo] ?? 0)
    const vf = t.valorFaceCentavos
    const d = desagio(vf, n)
    const av = adValorem(vf)
    const tarifa = terms.tarifaPorTituloCentavos
    const diasIof = Math.min(daysBetween(d0, t.vencimento), IOF_MAX_DAYS)
    const iofBase = aliquota ? vf - d : 0n
    const iofDiario = iofDaily ? iofDaily(iofBase, diasIof) : 0n
    const iofAdicional = iofExtra ? iofExtra(iofBase) : 0n
    const iof = iofDiario + iofAdicional
    return {
      vencimento: t.vencimento, vencimentoUtil, diasDesconto: n, diasIof,
      desagio: d, adValorem: av, tarifa, iofBase, iofDiario, iofAdicional, iof,
      precoCompra: vf - d - av - tarifa - iof,
    }
  })

  const sum = (pick: (l: Line) => bigint): bigint => linhas.reduce((s, l) => s + pick(l), 0n)
  const compensacoes = input.compensacoesCentavos ?? 0n
  const valorLiquido = sum((l) => l.precoCompra) - terms.tacCentavos - compensacoes
  const totais: Totals = {
    valorFace: totalFace, desagio: sum((l) => l.desagio), adValorem: sum((l) => l.adValorem),
    tarifas: sum((l) => l.tarifa), tac: terms.tacCentavos, iof: sum((l) => l.iof), compensacoes, valorLiquido,
  }
  const weighted = linhas.reduce((s, l, k) => s + input.titulos[k]!.valorFaceCentavos * BigInt(l.diasDesconto), 0n)
  const prazoMedioDias = totalFace > 0n ? fixedFraction(weighted, totalFace, 2) : '0.00'
  return {
    linhas, totais, prazoMedioDias,
    // The rate of the purchase itself: what the cedente owed back is no part of its price.
    taxaEfetivaMensal: effectiveMonthlyRate(input.titulos.map((t, k) => ({ valor: t.valorFaceCentavos, dias: linhas[k]!.diasDesconto })),
      valorLiquido + compensacoes),
    iof: { perfil, aliquota },
    feriados: [...feriados.values()].sort((a, b) => (a.data < b.data ? -1 : 1)),
  }
}

/** The holidays that moved a due date: national ones from the computed calendar, the customer's own by name. */
function collectHolidays(into: Map<string, Holiday>, t: TituloToPrice, util: string): void {
  for (const h of nationalHolidaysBetween(t.vencimento, util)) into.set(h.data, h)
  for (const data of t.feriadosLocais) {
    if (data >= t.vencimento && data < util && !into.has(data)) {
      into.set(data, { data, descricao: t.descreverFeriadoLocal?.(data) ?? 'feriado local' })
    }
  }
}
