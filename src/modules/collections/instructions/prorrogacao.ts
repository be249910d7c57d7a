// A prorrogação (issue 33: "Prorrogação with IOF complementar for the added days (365 in all at most) … posted to the
// ledger and shown in the cedente's conta gráfica"; docs/decisions.md, "A prorrogação"):
// - asked: the IOF the added days cost is priced that day (the daily rate in force for the operation's IOF profile,
//   on the título's open balance, for the days past those the título already bore, 365 in all at most: Decreto
//   6.306/2007 art. 7 § 1) and kept on the instruction; the additional rate is not charged again;
// - confirmed by the bank: the IOF is posted once (Dr the cedente's conta gráfica, Cr IOF a recolher); the título and
//   its charge fall due on the new date, the charge's barcode carrying the new fator de vencimento; and the título's
//   deságio is earned over the longer term (its days grow by the business days' difference; what was earned stays).
// Re-running the confirmation changes nothing: the dates are already the new ones, and the IOF's entry is kept on the
// instruction.
import { sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { queryRows } from '../../../platform/db/database.ts'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { addDays, daysBetween, nextBusinessDay, ownHolidays } from '../../calendar/index.ts'
import { postEntry } from '../../ledger/index.ts'
import { dailyIof, iofTable, IOF_MAX_DAYS, MissingIofRate, rateOn, type PerfilIof } from '../../pricing/index.ts'
import { codigoDeBarras, linhaDigitavel } from '../boleto/codigo-barras.ts'
import { feriadosDoLugar, type Lugar } from '../feriados.ts'

type Term = {
  titulo_id: string, estado: string, saldo: string, vencimento: string, desagio_dias: number | null, cedente_id: string, data_operacao: string,
  perfil: PerfilIof | null, municipio_ibge: string | null, uf: string | null, cobranca_id: string, cobranca_numero: string, codigo_barras: string,
  banco: string,
}

/** The charge's título, its operation's date and IOF profile, and its sacado's place; the título locked when `lock`. */
async function termOf(tx: Orm, cobrancaId: string, lock: boolean): Promise<Term | undefined> {
  const [row] = await queryRows<Term>(tx, sql`SELECT t.id AS titulo_id, t.estado, t.saldo_centavos::text AS saldo, t.vencimento::text AS vencimento,
      t.desagio_dias, t.cedente_id, o.data_operacao::text AS data_operacao, q.calculo ->> 'perfil_iof' AS perfil, s.municipio_ibge, s.uf,
      c.id AS cobranca_id, c.numero::text AS cobranca_numero, c.codigo_barras, substr(c.codigo_barras, 1, 3) AS banco
    FROM cobrancas c
    JOIN titulos t ON t.cliente_id = c.cliente_id AND t.id = c.titulo_id
    JOIN operacoes o ON o.cliente_id = t.cliente_id AND o.id = t.operacao_id
    JOIN sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
    LEFT JOIN cotacoes q ON q.cliente_id = o.cliente_id AND q.operacao_id = o.id AND q.versao = o.cotacao_aceita
    WHERE c.id = ${cobrancaId}::uuid ${lock ? sql`FOR UPDATE OF t, c` : sql``}`)
  return row
}

/** The IOF days a título due on `vencimento` bears, counted from its operation's date, 365 at most. */
const iofDays = (dataOperacao: string, vencimento: string) => Math.min(Math.max(daysBetween(dataOperacao, vencimento), 0), IOF_MAX_DAYS)

/** What moving charge `cobrancaId`'s título to `novo` costs in IOF, priced on `today`; 422 iof_sem_aliquota where the table has no rate. */
export async function extensionIof(tx: Orm, cobrancaId: string, novo: string, today: string): Promise<{ centavos: number, dias: number }> {
  const t = await termOf(tx, cobrancaId, false)
  if (!t) return { centavos: 0, dias: 0 }
  const dias = Math.max(iofDays(t.data_operacao, novo) - iofDays(t.data_operacao, t.vencimento), 0)
  if (dias === 0 || t.perfil === null || t.perfil === 'isento') return { centavos: 0, dias }
  const rate = rateOn(await iofTable(tx), t.perfil, today)
  if (!rate) throw new MissingIofRate(t.perfil, today)
  return { centavos: Number(dailyIof(rate.taxaDiaria, BigInt(t.saldo), dias)), dias }
}

/** The first business day from `day` at the sacado's place (national holidays and the customer's own there). */
async function businessDay(tx: Orm, day: string, place: Lugar): Promise<string> {
  return nextBusinessDay(day, feriadosDoLugar(await ownHolidays(tx, { de: day, ate: addDays(day, 40) }), place))
}

export type ConfirmedExtension = { id: string, cliente_id: string, cobranca_id: string, vencimento: string, iof: string | null, lancamento_id: string | null }

/** The effects of extension `i`, just confirmed by the bank (in its transaction). */
export async function extensionConfirmed(tx: Orm, i: ConfirmedExtension, now: Date): Promise<void> {
  const t = await termOf(tx, i.cobranca_id, true)
  if (!t || t.estado !== 'adquirido') return
  const novo = i.vencimento
  if (t.vencimento !== novo) {
    const place = { municipioIbge: t.municipio_ibge, uf: t.uf }
    const added = daysBetween(await businessDay(tx, t.vencimento, place), await businessDay(tx, novo, place))
    await tx.execute(sql`UPDATE titulos SET vencimento = ${novo}::date, atualizado_em = ${now.toISOString()}::timestamptz,
        desagio_dias = CASE WHEN desagio_dias IS NULL THEN NULL ELSE greatest(desagio_dias + ${added}, 0) END
      WHERE id = ${t.titulo_id}::uuid`)
    const barras = codigoDeBarras({
      banco: t.banco, vencimento: novo, valorCentavos: Number(t.codigo_barras.slice(9, 19)), campoLivre: t.codigo_barras.slice(19),
    })
    await tx.execute(sql`UPDATE cobrancas SET vencimento = ${novo}::date, codigo_barras = ${barras}, linha_digitavel = ${linhaDigitavel(barras)},
        atualizado_em = ${now.toISOString()}::timestamptz
      WHERE id = ${t.cobranca_id}::uuid`)
  }
  const iof = BigInt(i.iof ?? '0')
  if (iof === 0n || i.lancamento_id !== null) return
  const lancamentoId = await postEntry(tx, {
    clienteId: i.cliente_id, data: brasiliaDay(now), historico: `IOF complementar da prorrogação da cobrança nº ${t.cobranca_numero}`,
    origem: { tipo: 'instrucao', id: i.id }, requestId: null,
    linhas: [{ conta: 'conta_grafica_cedentes', cedenteId: t.cedente_id, debito: iof }, { conta: 'iof_a_recolher', credito: iof }],
  }, now)
  await tx.execute(sql`UPDATE cobranca_instrucoes SET lancamento_id = ${lancamentoId}::uuid WHERE id = ${i.id}::uuid`)
}
