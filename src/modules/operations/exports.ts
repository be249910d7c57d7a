// The operations', títulos' and payments' lists as CSV (issue 32 item 3): the same search, filters and order as
// the list, every page, read in batches of EXPORT_BATCH rows after the last row read, each batch in its own short
// tenant transaction (a transaction held open while a slow client downloads would hold a pooled connection, and
// on the embedded database its only session). A row's cedente, sacado and operation are named, not identified.
import { inArray } from 'drizzle-orm'
import type { Database, Orm } from '../../platform/db/database.ts'
import { inBatches, keyOf, type Sort } from '../../platform/db/list-sql.ts'
import { codeCsv, dayCsv, documentCsv, instantCsv, intCsv, reaisCsv, type CsvCell } from '../../platform/lib/csv.ts'
import type { CsvExport } from '../../platform/http/csv-answer.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { cedentes, sacados } from '../origination/index.ts'
import { ESTADO_CONFIRMACAO_TEXTO, ESTADO_DESEMBOLSO_TEXTO, ESTADO_OPERACAO_TEXTO, ESTADO_TITULO_TEXTO, inWords, TIPO_TITULO_TEXTO } from './labels.ts'
import {
  operationRows, paymentRows, titleRows, type OperationListFilter, type PaymentListFilter, type TitleListFilter,
} from './lists.ts'
import { numbersOf, titleTotals, type Operation, type Payment, type Title } from './store.ts'

/** Rows per batch: one read of a few hundred kilobytes, a thousand round trips for a million rows. */
export const EXPORT_BATCH = 1000

type Named = { razaoSocial: string, documento: string }

async function partiesOf(tx: Orm, table: typeof cedentes | typeof sacados, ids: string[]): Promise<Map<string, Named>> {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map()
  const rows = await tx.select({ id: table.id, razaoSocial: table.razaoSocial, documento: table.documento }).from(table).where(inArray(table.id, unique))
  return new Map(rows.map((r) => [r.id, r]))
}

type Read<R> = { db: Database, clienteId: string, sort: Sort<R> }
const batches = <R, E>(r: Read<R>, read: (tx: Orm, after: unknown[] | undefined) => Promise<E[]>, row: (e: E) => R) =>
  inBatches((after) => withTenant(r.db, r.clienteId, (tx) => read(tx, after)), (e) => keyOf(r.sort, row(e)), EXPORT_BATCH)

type OpRow = { o: Operation, cedente: Named | undefined, n: number, face: bigint }

export function operationsCsv(r: Read<Operation>, f: OperationListFilter, filename: string): CsvExport<OpRow> {
  return {
    filename,
    header: ['Operação nº', 'ID externo', 'Cedente', 'Documento do cedente', 'Data da operação', 'Estado', 'Títulos', 'Valor de face (R$)', 'Criada em'],
    rows: batches(r, async (tx, after) => {
      const ops = await operationRows(tx, f, r.sort, { limit: EXPORT_BATCH, ...(after ? { after } : {}) })
      const names = await partiesOf(tx, cedentes, ops.map((o) => o.cedenteId))
      const totals = await titleTotals(tx, ops.map((o) => o.id))
      return ops.map((o) => ({ o, cedente: names.get(o.cedenteId), n: totals.get(o.id)?.n ?? 0, face: totals.get(o.id)?.face ?? 0n }))
    }, (e) => e.o),
    cells: ({ o, cedente, n, face }): CsvCell[] => [intCsv(o.numero), o.idExterno, cedente?.razaoSocial, documentCsv(cedente?.documento),
      dayCsv(o.dataOperacao),
      inWords(ESTADO_OPERACAO_TEXTO, o.estado), intCsv(n), reaisCsv(face), instantCsv(o.criadoEm)],
  }
}

type TitleRow = { t: Title, sacado: Named | undefined, cedente: Named | undefined, operacao: number | undefined }

export function titlesCsv(r: Read<Title>, f: TitleListFilter, filename: string): CsvExport<TitleRow> {
  return {
    filename,
    header: ['Número', 'Tipo', 'Sacado', 'Documento do sacado', 'Cedente', 'Documento do cedente', 'Operação nº', 'Emissão', 'Vencimento',
      'Valor de face (R$)', 'Saldo (R$)', 'Estado', 'Confirmação', 'Chave NF-e', 'ID externo'],
    rows: batches(r, async (tx, after) => {
      const list = await titleRows(tx, f, r.sort, { limit: EXPORT_BATCH, ...(after ? { after } : {}) })
      const sacadoNames = await partiesOf(tx, sacados, list.map((t) => t.sacadoId))
      const cedenteNames = await partiesOf(tx, cedentes, list.map((t) => t.cedenteId))
      const numbers = await numbersOf(tx, list.map((t) => t.operacaoId))
      return list.map((t) => ({ t, sacado: sacadoNames.get(t.sacadoId), cedente: cedenteNames.get(t.cedenteId), operacao: numbers.get(t.operacaoId) }))
    }, (e) => e.t),
    cells: ({ t, sacado, cedente, operacao }): CsvCell[] => [t.numero, inWords(TIPO_TITULO_TEXTO, t.tipo), sacado?.razaoSocial, documentCsv(sacado?.documento),
      cedente?.razaoSocial, documentCsv(cedente?.documento), intCsv(operacao ?? null), dayCsv(t.emissao), dayCsv(t.vencimento), reaisCsv(t.valorFaceCentavos),
      reaisCsv(t.saldoCentavos), inWords(ESTADO_TITULO_TEXTO, t.estado), inWords(ESTADO_CONFIRMACAO_TEXTO, t.confirmacaoEstado), t.chaveNfe,
      t.idExterno],
  }
}

type PaymentRow = { p: Payment, cedente: Named | undefined, operacao: number | undefined }

export function paymentsCsv(r: Read<Payment>, f: PaymentListFilter, filename: string): CsvExport<PaymentRow> {
  return {
    filename,
    header: ['Operação nº', 'Cedente', 'Documento do cedente', 'Valor (R$)', 'Banco', 'Agência', 'Conta', 'Estado', 'Pedido em', 'Aprovado em', 'Pago em',
      'ID da transação', 'Motivo da falha', 'Recusado em', 'Motivo da recusa'],
    rows: batches(r, async (tx, after) => {
      const list = await paymentRows(tx, f, r.sort, { limit: EXPORT_BATCH, ...(after ? { after } : {}) })
      const names = await partiesOf(tx, cedentes, list.map((p) => p.cedenteId))
      const numbers = await numbersOf(tx, list.map((p) => p.operacaoId))
      return list.map((p) => ({ p, cedente: names.get(p.cedenteId), operacao: numbers.get(p.operacaoId) }))
    }, (e) => e.p),
    cells: ({ p, cedente, operacao }): CsvCell[] => [intCsv(operacao ?? null), cedente?.razaoSocial, documentCsv(cedente?.documento), reaisCsv(p.valorCentavos),
      codeCsv(p.banco), codeCsv(p.agencia), codeCsv(`${p.conta}-${p.digito}`), inWords(ESTADO_DESEMBOLSO_TEXTO, p.estado), instantCsv(p.criadoEm),
      instantCsv(p.aprovadoEm), instantCsv(p.pagoEm), p.idTransacao, p.motivoFalha, instantCsv(p.recusadoEm), p.motivoRecusa],
  }
}
