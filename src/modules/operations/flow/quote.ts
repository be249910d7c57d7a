// Quoting an operation (produto.md §2.5–2.6): its títulos priced with the product's latest version, the cedente's
// IOF profile, and each sacado's business days; kept as the operation's next quote, which supersedes the last.
import type { Orm } from '../../../platform/db/database.ts'
import { readInTransaction } from '../../../platform/db/in-transaction.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { addDays, ownHolidaysRead } from '../../calendar/index.ts'
import { iofTableRead, latestVersionRead, type PerfilIof } from '../../pricing/index.ts'
import { ExpiredQuoteError, InvalidStateError } from '../errors.ts'
import { holidayWindow, pricedWith, pricingBody, type TitleToQuote } from '../pricing-request.ts'
import { saveQuote, titlesRead, type Operation, type SavedQuote } from '../store.ts'
import { openBuyBacksRead, thatFit } from './compensations.ts'
import { cedenteRead, refuseBlocked, sacadosRead } from './registers.ts'

/** A quote holds until the end of the operation's day in Brasília (UTC−3, no daylight saving since 2019). */
export const validUntil = (dataOperacao: string): Date => new Date(`${addDays(dataOperacao, 1)}T00:00:00-03:00`)

export async function quoteOperation(tx: Orm, op: Operation, now: Date): Promise<SavedQuote> {
  if (op.estado !== 'rascunho' && op.estado !== 'cotada') throw new InvalidStateError(op.estado)
  if (op.dataOperacao < brasiliaDay(now)) throw new ExpiredQuoteError(validUntil(op.dataOperacao))
  // Two round trips of reads (the second needs the títulos'), one of writes: a quote moves a hundred rows and more.
  const [list, version, cedente, iofTable, buyBacks] = await readInTransaction(tx, [
    titlesRead(op.id), latestVersionRead(op.produtoId), cedenteRead(op.cedenteId), iofTableRead(), openBuyBacksRead(op.cedenteId),
  ] as const)
  if (!list.length) {
    throw new RequestValidationError([{ type: 'value_error', loc: ['path', 'id'], msg: 'Value error, the operation has no títulos to quote', input: op.id }])
  }
  const [sacadoRows, own] = await readInTransaction(tx, [
    sacadosRead(list.map((t) => t.sacadoId)), ownHolidaysRead(holidayWindow(op.dataOperacao, list)),
  ] as const)
  refuseBlocked(cedente, sacadoRows.values())
  const toQuote: TitleToQuote[] = list.map((t) => {
    const s = sacadoRows.get(t.sacadoId)!
    return { tipo: t.tipo, vencimento: t.vencimento, valorFaceCentavos: t.valorFaceCentavos, place: { municipioIbge: s.municipioIbge, uf: s.uf },
      tituloId: t.id }
  })
  const question = { dataOperacao: op.dataOperacao, perfilIof: cedente!.perfilIof as PerfilIof, terms: version!, list: toQuote, own, iofTable }
  let pricing = pricedWith({ ...question, viable: true })
  // The cedente's buy-backs that fit in what this operation pays it: priced again with them deducted.
  const compensacoes = thatFit(buyBacks, pricing.totais.valorLiquido)
  const compensated = compensacoes.reduce((s, c) => s + BigInt(c.valor_centavos), 0n)
  if (compensated > 0n) pricing = pricedWith({ ...question, viable: true, compensacoesCentavos: compensated })
  const versao = op.cotacaoVersao + 1
  const validaAte = validUntil(op.dataOperacao)
  const calculo = {
    versao, valida_ate: validaAte.toISOString(), produto: { id: op.produtoId, versao: version!.versao }, ...pricingBody(pricing, toQuote, op.dataOperacao),
    ...(compensacoes.length ? { compensacoes } : {}),
  }
  const t = pricing.totais
  return saveQuote(tx, {
    clienteId: op.clienteId, operacaoId: op.id, versao, produtoVersao: version!.versao, validaAte,
    valorFaceCentavos: t.valorFace, desagioCentavos: t.desagio, adValoremCentavos: t.adValorem, tarifasCentavos: t.tarifas, tacCentavos: t.tac,
    iofCentavos: t.iof, valorLiquidoCentavos: t.valorLiquido, compensacoesCentavos: t.compensacoes, calculo,
  }, now)
}
