// The charges' list as CSV (issue 33, with issue 32's exports): the same filters as the list, newest first, every
// page, read in batches after the last charge read, each batch in its own short tenant transaction (a slow reader
// holds no pooled connection). A row names its título and sacado, its bank, its boleto's linha digitável.
import type { Database } from '../../../platform/db/database.ts'
import { inBatches } from '../../../platform/db/list-sql.ts'
import type { CsvExport } from '../../../platform/http/csv-answer.ts'
import { codeCsv, dayCsv, instantCsv, intCsv, reaisCsv, type CsvCell } from '../../../platform/lib/csv.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { REGRAS, type Banco } from '../boleto/bancos.ts'
import { ESTADO_COBRANCA_TEXTO } from '../labels.ts'
import { listCharges, type ChargeFilter, type ListedCharge } from './store.ts'

/** Rows per batch, as the other lists' exports read them. */
const EXPORT_BATCH = 1000

export function chargesCsv(db: Database, clienteId: string, filter: ChargeFilter, filename: string): CsvExport<ListedCharge> {
  // The list's own cursor (newest first, before a seq) as the other exports' batches.
  const rows = inBatches((after) => withTenant(db, clienteId, async (tx) => (await listCharges(tx, filter,
    { limit: EXPORT_BATCH, ...(after ? { before: after[0] as number } : {}) })).items), (c) => [c.seq], EXPORT_BATCH)
  return {
    filename,
    header: ['Cobrança nº', 'Título', 'Sacado', 'Banco', 'Nosso número', 'Vencimento', 'Valor (R$)', 'Estado', 'Linha digitável', 'Emitida em'],
    rows,
    cells: (c): CsvCell[] => [intCsv(c.numero), c.tituloNumero, c.sacado.razaoSocial, `${c.banco} ${REGRAS[c.banco as Banco]?.nome ?? ''}`.trim(),
      codeCsv(c.nossoNumeroImpresso), dayCsv(c.vencimento), reaisCsv(c.valorCentavos), ESTADO_COBRANCA_TEXTO[c.estado] ?? c.estado,
      c.linhaDigitavel, instantCsv(c.criadoEm)],
  }
}
