// The ledger's entries as CSV (issue 32 item 3): one row a line, as an accountant's spreadsheet sums them (a
// column of debits and one of credits per account), with the entry's number, day and history on each; the same
// search, filters and order as the list, read in batches after the last entry read.
import type { Database } from '../../platform/db/database.ts'
import { inBatches, keyOf, type Sort } from '../../platform/db/list-sql.ts'
import type { CsvExport } from '../../platform/http/csv-answer.ts'
import { dayCsv, intCsv, reaisCsv, type CsvCell } from '../../platform/lib/csv.ts'
import { entryRows, type EntryFilter, type EntrySummary } from './store.ts'

const BATCH = 500

export function entriesCsv(db: Pick<Database, 'oneTrip'>, clienteId: string, f: EntryFilter, sort: Sort<EntrySummary>, filename: string)
  : CsvExport<[EntrySummary, EntrySummary['linhas'][number]]> {
  async function* lines() {
    const batches = inBatches((after) => entryRows(db, clienteId, f, sort, { limit: BATCH, ...(after ? { after } : {}) }), (e) => keyOf(sort, e), BATCH)
    for await (const entries of batches) yield entries.flatMap((e) => e.linhas.map((l) => [e, l] as [EntrySummary, typeof l]))
  }
  return {
    filename,
    header: ['Lançamento nº', 'Data', 'Histórico', 'Conta', 'Débito (R$)', 'Crédito (R$)'],
    rows: lines(),
    cells: ([e, l]): CsvCell[] => [intCsv(e.numero), dayCsv(e.data), e.historico, l.conta, reaisCsv(l.debito ?? 0n), reaisCsv(l.credito ?? 0n)],
  }
}
