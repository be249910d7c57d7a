// "Exportar CSV" of each back office page that has one (issue 32 item 3, issue 33): the API URL whose CSV the page's
// export streams, for the page's path and its query. A list with a spec exports by it; the charges and a retorno's
// lines page by the API's cursor instead and name their own.
import { apiUrlOf, listStateOf } from './list-query.ts'
import { listOfPath } from './list-specs.ts'
import { chargeQueryOf, chargesExportUrl } from './pages/charges.ts'
import { linesExportUrl, linesQueryOf } from './pages/retorno.ts'
import { BACKOFFICE_PATHS as P } from './paths.ts'

/** The route pattern of a retorno's page. */
export const RETORNO_PAGE = P.retorno(':id')

/** The API's CSV URL for the page at `path` (the retorno's `id` where the path has one); undefined for a page without an export. */
export function exportUrlOf(path: string, id: string, query: Record<string, string | undefined>): string | undefined {
  const spec = listOfPath(path)
  if (spec) return apiUrlOf(spec, listStateOf(spec, query), true)
  if (path === P.cobrancas) return chargesExportUrl(chargeQueryOf(query))
  if (path === RETORNO_PAGE) return linesExportUrl(id, linesQueryOf(query))
  return undefined
}
