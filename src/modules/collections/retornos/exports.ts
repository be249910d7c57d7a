// A retorno's lines as CSV (issue 33, with issue 32's exports): what the bank said of each título, what it paid and
// what the service did with it, in the file's order, every line the filter gives, read in batches after the last line
// read, each batch in its own short tenant transaction. What a back office reconciles its bank statement against.
import type { Database } from '../../../platform/db/database.ts'
import { inBatches } from '../../../platform/db/list-sql.ts'
import type { CsvExport } from '../../../platform/http/csv-answer.ts'
import { codeCsv, dayCsv, intCsv, reaisCsv, type CsvCell } from '../../../platform/lib/csv.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { MOTIVO_IGNORADA_TEXTO, OCORRENCIA_TEXTO, RESULTADO_LINHA_TEXTO } from '../labels.ts'
import { listLines, type LinhaRetorno } from './store.ts'

const EXPORT_BATCH = 1000

export function retornoLinesCsv(db: Database, clienteId: string, retornoId: string, resultado: string | undefined, filename: string)
  : CsvExport<LinhaRetorno> {
  const rows = inBatches((after) => withTenant(db, clienteId, (tx) => listLines(tx, retornoId,
    { ...(resultado ? { resultado } : {}), ...(after ? { after: after[0] as number } : {}), limit: EXPORT_BATCH })), (l) => [l.linha], EXPORT_BATCH)
  return {
    filename,
    header: ['Linha', 'Código', 'Ocorrência', 'Nosso número', 'Seu número', 'Data da ocorrência', 'Data do crédito', 'Pago (R$)',
      'Juros e multa (R$)', 'Desconto (R$)', 'Abatimento (R$)', 'Tarifa (R$)', 'Resultado', 'Motivo', 'Detalhe'],
    rows,
    cells: (l): CsvCell[] => [intCsv(l.linha), codeCsv(l.codigo), OCORRENCIA_TEXTO[l.ocorrencia as keyof typeof OCORRENCIA_TEXTO] ?? l.ocorrencia,
      codeCsv(l.nossoNumero), l.seuNumero, dayCsv(l.dataOcorrencia), dayCsv(l.dataCredito), reaisCsv(l.pagoCentavos), reaisCsv(l.jurosMultaCentavos),
      reaisCsv(l.descontoCentavos), reaisCsv(l.abatimentoCentavos), reaisCsv(l.tarifaCentavos), RESULTADO_LINHA_TEXTO[l.resultado] ?? l.resultado,
      l.motivo ? (MOTIVO_IGNORADA_TEXTO[l.motivo as keyof typeof MOTIVO_IGNORADA_TEXTO] ?? l.motivo) : null, l.detalhe],
  }
}
