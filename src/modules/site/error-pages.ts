// Which status an error on a site path is shown with, and what its page says (the texts live beside the
// error catalogue, src/platform/http/problem-catalogue.ts: one place for what every error answers).
import { PAGE_TEXT } from '../../platform/http/problem-catalogue.ts'

// Errors answered with their own status; any other is a 400 (the client's fault) or a 500 (ours).
const SHOWN_AS_IS = new Set([403, 413, 415, 422, 429, 503])

/** The status an error raised on a site path is answered with. */
export function pageStatus(status: number): number {
  if (SHOWN_AS_IS.has(status)) return status
  return status >= 500 ? 500 : 400
}

export function errorText(status: number): { titulo: string, explicacao: string } {
  const [titulo, explicacao] = PAGE_TEXT[status] ?? PAGE_TEXT[500]!
  return { titulo, explicacao }
}
