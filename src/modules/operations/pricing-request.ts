// What a quote and a simulation price with, gathered from the customer's data: the terms, the títulos with their
// sacado's own holidays, the IOF table; and the priced borderô as both answer it (produto.md §2.6).
import type { Orm } from '../../platform/db/database.ts'
import { addDays, ownHolidays, ufOfMunicipio, type Holiday, type OwnHoliday } from '../calendar/index.ts'
import {
  iofRowJson, iofTable, price, pricingProblem, type IofRate, type PerfilIof, type Pricing, type Terms, type TipoTitulo,
} from '../pricing/index.ts'
import { UnviableQuoteError } from './errors.ts'

/** A sacado's place: its municipality (whose holidays and whose state's apply) or only its state. */
export type Place = { municipioIbge: string | null, uf: string | null }

export type TitleToQuote = { tipo: TipoTitulo, vencimento: string, valorFaceCentavos: bigint, place: Place, tituloId?: string }

/** Beyond the latest due date, the longest run of days a business day may be pushed by (Carnaval, a long weekend, the customer's own). */
const HOLIDAY_MARGIN_DAYS = 40

type PricingQuestion = {
  dataOperacao: string, perfilIof: PerfilIof, terms: Terms, list: readonly TitleToQuote[], viable: boolean, compensacoesCentavos?: bigint
}

/** The days whose customer's holidays can move a due date of `list`: from the operation's date to past the last due date. */
export function holidayWindow(dataOperacao: string, list: readonly { vencimento: string }[]): { de: string, ate: string } {
  const last = list.reduce((m, t) => (t.vencimento > m ? t.vencimento : m), dataOperacao)
  return { de: dataOperacao, ate: addDays(last, HOLIDAY_MARGIN_DAYS) }
}

/** Prices `list` on `dataOperacao`; refuses a borderô no one would sign (cotacao_inviavel) when `viable` is asked. */
export async function priceTitles(tx: Orm, q: PricingQuestion): Promise<Pricing> {
  const own = q.list.length ? await ownHolidays(tx, holidayWindow(q.dataOperacao, q.list)) : []
  return pricedWith({ ...q, own, iofTable: await iofTable(tx) })
}

/** The same with the customer's holidays in the window and the IOF table already read. */
export function pricedWith(q: PricingQuestion & { own: readonly OwnHoliday[], iofTable: readonly IofRate[] }): Pricing {
  const pricing = price({
    dataOperacao: q.dataOperacao, perfilIof: q.perfilIof, terms: q.terms, iofTable: q.iofTable,
    ...(q.compensacoesCentavos ? { compensacoesCentavos: q.compensacoesCentavos } : {}),
    titulos: q.list.map((t) => {
      const local = q.own.filter((h) => appliesTo(h, t.place))
      return {
        tipo: t.tipo, vencimento: t.vencimento, valorFaceCentavos: t.valorFaceCentavos, feriadosLocais: new Set(local.map((h) => h.data)),
        descreverFeriadoLocal: (data: string) => local.find((h) => h.data === data)?.descricao,
      }
    }),
  })
  const problem = q.viable ? pricingProblem(pricing) : undefined
  if (problem) throw new UnviableQuoteError(problem.motivo, 'indice' in problem ? problem.indice : undefined)
  return pricing
}

/** Whether a customer's holiday falls on a sacado's place: its municipality's, or its state's. */
export function appliesTo(h: { municipioIbge: string | null, uf: string | null }, place: Place): boolean {
  if (h.municipioIbge !== null) return h.municipioIbge === place.municipioIbge
  const uf = place.uf ?? (place.municipioIbge ? ufOfMunicipio(place.municipioIbge) : undefined)
  return uf !== undefined && h.uf === uf
}

const n = (x: bigint): number => Number(x)

/** The priced borderô as a quote and a simulation answer it: lines in the order given, totals, what it used. */
export function pricingBody(p: Pricing, list: readonly TitleToQuote[], dataOperacao: string) {
  return {
    data_operacao: dataOperacao,
    perfil_iof: p.iof.perfil,
    linhas: p.linhas.map((l, k) => {
      const line = {
        vencimento: l.vencimento, vencimento_util: l.vencimentoUtil, dias_desconto: l.diasDesconto, dias_iof: l.diasIof,
        valor_face_centavos: n(list[k]!.valorFaceCentavos), desagio_centavos: n(l.desagio), ad_valorem_centavos: n(l.adValorem), tarifa_centavos: n(l.tarifa),
        iof_base_centavos: n(l.iofBase), iof_diario_centavos: n(l.iofDiario), iof_adicional_centavos: n(l.iofAdicional), iof_centavos: n(l.iof),
        preco_compra_centavos: n(l.precoCompra),
      }
      // A quote's lines name their títulos first; a simulation's have none. (A spread here cost a millisecond a hundred lines.)
      const tituloId = list[k]!.tituloId
      return tituloId ? { titulo_id: tituloId, ...line } : line
    }),
    totais: {
      valor_face_centavos: n(p.totais.valorFace), desagio_centavos: n(p.totais.desagio), ad_valorem_centavos: n(p.totais.adValorem),
      tarifas_centavos: n(p.totais.tarifas), tac_centavos: n(p.totais.tac), iof_centavos: n(p.totais.iof),
      compensacoes_centavos: n(p.totais.compensacoes), valor_liquido_centavos: n(p.totais.valorLiquido),
    },
    prazo_medio_dias: p.prazoMedioDias,
    taxa_efetiva_mensal: p.taxaEfetivaMensal,
    iof_aliquotas: p.iof.aliquota ? [iofRowJson(p.iof.aliquota)] : [],
    feriados: p.feriados.map((h: Holiday) => ({ data: h.data, descricao: h.descricao })),
  }
}

export type PricingBody = ReturnType<typeof pricingBody>
