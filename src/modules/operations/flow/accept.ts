// Accepting a quote (produto.md §2.5, §2.7): binds that quote, checks the registers (blocked, limits) under their
// locks, acquires the títulos and posts the acquisition to the ledger, all in the caller's transaction: the
// operation is accepted with its whole entry or not at all.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { postEntry, type EntryLine } from '../../ledger/index.ts'
import {
  EarlyAcceptanceError, ExpiredQuoteError, InvalidStateError, LimitExceededError, RegistryBlockedError, StaleQuoteError, UnconfirmedTitlesError,
  type LimitBreach,
} from '../errors.ts'
import { setTitleDesagio } from '../desagio.ts'
import { compensationsOf, markCompensated } from './compensations.ts'
import { lockTitles, quoteOf, setTitles, titlesOf, updateOperation, type Operation, type Quote, type Title } from '../store.ts'
import { cedenteOf, refuseBlocked, sacadosOf, type CedenteRow, type SacadoRow } from './registers.ts'

export async function acceptQuote(tx: Orm, op: Operation, versao: number, ctx: { now: Date, requestId: string | null }): Promise<void> {
  if (op.estado !== 'cotada') throw new InvalidStateError(op.estado)
  if (versao !== op.cotacaoVersao) throw new StaleQuoteError(op.cotacaoVersao)
  const quote = (await quoteOf(tx, op.id, versao))!
  if (ctx.now >= quote.validaAte) throw new ExpiredQuoteError(quote.validaAte)
  const today = brasiliaDay(ctx.now)
  if (today < op.dataOperacao) throw new EarlyAcceptanceError(op.dataOperacao, today)
  await lockTitles(tx, op.id)
  const list = await titlesOf(tx, op.id)
  // Locked in a fixed order (the cedente, then sacados by id): a limit is checked against every other acceptance.
  const cedente = (await cedenteOf(tx, op.cedenteId, true))!
  const sacadoRows = await sacadosOf(tx, list.map((t) => t.sacadoId), true)
  refuseBlocked(cedente, sacadoRows.values())
  await refuseUnchecked(tx, op, quote.produtoVersao, list)
  await refuseOverLimit(tx, cedente, sacadoRows, list)
  if (!await markCompensated(tx, compensationsOf(quote.calculo), op.id, ctx.now)) throw new StaleQuoteError(op.cotacaoVersao)
  await setTitles(tx, op.id, 'adquirido', 'face', ctx.now)
  await setTitleDesagio(tx, op.id, versao)
  await updateOperation(tx, op.id, { estado: 'aceita', cotacaoAceita: versao, aceitaEm: ctx.now }, ctx.now)
  await postEntry(tx, {
    clienteId: op.clienteId, data: op.dataOperacao, historico: `Aquisição da operação nº ${op.numero}`, origem: { tipo: 'operacao', id: op.id },
    requestId: ctx.requestId, linhas: acquisitionLines(quote, op.cedenteId),
  }, ctx.now)
}

/** Dr direitos creditórios the face value; Cr deságio, ad valorem, fees and the tarifa de cadastro, IOF, and the cedente's net amount. */
export function acquisitionLines(q: Quote, cedenteId: string): EntryLine[] {
  return [
    { conta: 'direitos_creditorios', debito: q.valorFaceCentavos },
    { conta: 'desagio_a_apropriar', credito: q.desagioCentavos },
    { conta: 'receita_ad_valorem', credito: q.adValoremCentavos },
    { conta: 'receita_tarifas', credito: q.tarifasCentavos + q.tacCentavos },
    { conta: 'iof_a_recolher', credito: q.iofCentavos },
    // The net it is paid, and what it owed back for buy-backs this operation compensates (debited when they were made).
    { conta: 'conta_grafica_cedentes', cedenteId, credito: q.valorLiquidoCentavos + q.compensacoesCentavos },
  ]
}

/** Confirmed or waived: what a product that asks for confirmation accepts (a partial confirmation is not the título's value). */
const CONFIRMADOS: readonly string[] = ['confirmado', 'dispensado']

/** Duplicatas escriturais: what the registry holds (a cheque, a promissory note, a CCB or a CT-e is not registered there). */
const DUPLICATAS: readonly string[] = ['duplicata_mercantil', 'duplicata_servico']

/** What the product asks before acceptance: every título confirmed with its sacado; every duplicata's registry query clean. */
async function refuseUnchecked(tx: Orm, op: Operation, produtoVersao: number, list: Title[]): Promise<void> {
  const [terms] = await queryRows<{ exige_confirmacao: boolean, exige_registro: boolean }>(tx, sql`SELECT exige_confirmacao, exige_registro
    FROM produto_versoes WHERE produto_id = ${op.produtoId}::uuid AND versao = ${produtoVersao}`)
  if (terms?.exige_confirmacao) {
    const open = list.filter((t) => !CONFIRMADOS.includes(t.confirmacaoEstado))
    if (open.length) throw new UnconfirmedTitlesError(open.map((t) => ({ id: t.id, numero: t.numero, confirmacao_estado: t.confirmacaoEstado })))
  }
  if (terms?.exige_registro) {
    const open = list.filter((t) => DUPLICATAS.includes(t.tipo) && t.registroEstado !== 'livre')
    if (open.length) {
      throw new RegistryBlockedError(open.map((t) => ({
        id: t.id, numero: t.numero, registro_estado: t.registroEstado, registro_situacao: t.registroSituacao,
      })))
    }
  }
}

type Exposure = { tipo: 'cedente' | 'sacado', cadastro_id: string, exposicao_centavos: string }

async function refuseOverLimit(tx: Orm, cedente: CedenteRow, sacadoRows: Map<string, SacadoRow>, list: Title[]): Promise<void> {
  const ids = [cedente.id, ...sacadoRows.keys()]
  const rows = await queryRows<Exposure>(tx, sql`SELECT tipo, cadastro_id, exposicao_centavos::text AS exposicao_centavos FROM exposicoes
    WHERE cadastro_id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`)
  const exposure = (tipo: string, id: string) => BigInt(rows.find((r) => r.tipo === tipo && r.cadastro_id === id)?.exposicao_centavos ?? 0)
  const breaches: LimitBreach[] = []
  const check = (tipo: 'cedente' | 'sacado', { id, razaoSocial }: { id: string, razaoSocial: string }, limite: bigint | null, adds: bigint) => {
    const now = exposure(tipo, id)
    if (limite !== null && now + adds > limite) {
      breaches.push({ tipo, id, razao_social: razaoSocial, limite_centavos: Number(limite), exposicao_centavos: Number(now), operacao_centavos: Number(adds) })
    }
  }
  check('cedente', cedente, cedente.limiteCentavos, list.reduce((s, t) => s + t.valorFaceCentavos, 0n))
  for (const s of sacadoRows.values()) {
    check('sacado', s, s.limiteCentavos, list.filter((t) => t.sacadoId === s.id).reduce((sum, t) => sum + t.valorFaceCentavos, 0n))
  }
  if (breaches.length) throw new LimitExceededError(breaches)
}
