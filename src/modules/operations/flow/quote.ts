// Quoting an operation (produto.md §2.5–2.6): its títulos priced with the product's latest version, the cedente's
// IOF profile, and each sacado's business days; kept as the operation's next quote, which supersedes the last.
import type { Orm } from '../../../platform/db/database.ts'
import { RequestValidationError } from '../../../platform/http/validation-errors.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { addDays } from '../../calendar/index.ts'
import { getProduct, type PerfilIof } from '../../pricing/index.ts'
import { ExpiredQuoteError, InvalidStateError } from '../errors.ts'
import { priceTitles, pricingBody, type TitleToQuote } from '../pricing-request.ts'
import { titlesOf, updateOperation, type Operation, type Quote } from '../store.ts'
import { cotacoes } from '../tables.ts'
import { cedenteOf, refuseBlocked, sacadosOf } from './registers.ts'

/** A quote holds until the end of the operation's day in Brasília (UTC−3, no daylight saving since 2019). */
export const validUntil = (dataOperacao: string): Date => new Date(`${addDays(dataOperacao, 1)}T00:00:00-03:00`)

export async function quoteOperation(tx: Orm, op: Operation, now: Date): Promise<Quote> {
  if (op.estado !== 'rascunho' && op.estado !== 'cotada') throw new InvalidStateError(op.estado)
  if (op.dataOperacao < brasiliaDay(now)) throw new ExpiredQuoteError(validUntil(op.dataOperacao))
  const list = await titlesOf(tx, op.id)
  if (!list.length) {
    throw new RequestValidationError([{ type: 'value_error', loc: ['path', 'id'], msg: 'Value error, the operation has no títulos to quote', input: op.id }])
  }
  // One after another: a transaction is one connection, and node-postgres only queues (deprecated) what is sent at once.
  const product = await getProduct(tx, op.produtoId, 'latest')
  const cedente = await cedenteOf(tx, op.cedenteId)
  const sacadoRows = await sacadosOf(tx, list.map((t) => t.sacadoId))
  refuseBlocked(cedente, sacadoRows.values())
  const version = product!.versoes[0]!
  const toQuote: TitleToQuote[] = list.map((t) => {
    const s = sacadoRows.get(t.sacadoId)!
    return { tipo: t.tipo, vencimento: t.vencimento, valorFaceCentavos: t.valorFaceCentavos, place: { municipioIbge: s.municipioIbge, uf: s.uf },
      tituloId: t.id }
  })
  const pricing = await priceTitles(tx, { dataOperacao: op.dataOperacao, perfilIof: cedente!.perfilIof as PerfilIof, terms: version, list: toQuote,
    viable: true })
  const versao = op.cotacaoVersao + 1
  const validaAte = validUntil(op.dataOperacao)
  const calculo = {
    versao, valida_ate: validaAte.toISOString(), produto: { id: op.produtoId, versao: version.versao }, ...pricingBody(pricing, toQuote, op.dataOperacao),
  }
  const t = pricing.totais
  const [made] = await tx.insert(cotacoes).values({
    clienteId: op.clienteId, operacaoId: op.id, versao, produtoVersao: version.versao, validaAte,
    valorFaceCentavos: t.valorFace, desagioCentavos: t.desagio, adValoremCentavos: t.adValorem, tarifasCentavos: t.tarifas, tacCentavos: t.tac,
    iofCentavos: t.iof, valorLiquidoCentavos: t.valorLiquido, calculo, criadoEm: now,
  }).returning()
  await updateOperation(tx, op.id, { estado: 'cotada', cotacaoVersao: versao }, now)
  return made!
}
