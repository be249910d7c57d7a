// CSV as Brazilian Excel opens it with a double click: UTF-8 with a BOM (without it Excel reads the bytes as
// Windows-1252 and "Operação" turns to "OperaÃ§Ã£o"), `;` between cells (pt-BR Excel's list separator, since the
// comma is the decimal mark), amounts with a decimal comma and no thousands mark, days as dd/mm/aaaa, CRLF between
// rows, RFC 4180 quoting. Text typed by people is guarded against formula injection: a cell that begins with
// = + - @ TAB or CR would be run by a spreadsheet as a formula, so it is prefixed with an apostrophe, which Excel
// shows as text and hides. Numbers and days this code writes are not text and are never prefixed.
import { instantLabel } from './brasilia-time.ts'
import { documentoFormatado } from './documento-format.ts'

export const CSV_BOM = '\uFEFF'
export const CSV_SEPARATOR = ';'
export const CSV_EOL = '\r\n'

/** A cell: text (guarded and quoted), or a value this code formatted (`{ v }`: a number or a day, quoted only if it must be). */
export type CsvCell = string | null | undefined | { v: string }

const FORMULA_START = /^[=+\-@\t\r]/
const MUST_QUOTE = /[";\r\n]/

const quoted = (s: string): string => (MUST_QUOTE.test(s) ? `"${s.replaceAll('"', '""')}"` : s)

/** One cell as written: text that could start a formula gets an apostrophe first. */
export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return ''
  if (typeof cell === 'object') return quoted(cell.v)
  return quoted(FORMULA_START.test(cell) ? `'${cell}` : cell)
}

/** One row with its line ending. */
export const csvRow = (cells: readonly CsvCell[]): string => cells.map(csvCell).join(CSV_SEPARATOR) + CSV_EOL

/** Integer centavos as reais with a decimal comma, "-1234,56": Excel in pt-BR reads it as a number. */
export function reaisCsv(centavos: bigint | number | null): CsvCell {
  if (centavos === null) return null
  const value = BigInt(centavos)
  const abs = value < 0n ? -value : value
  return { v: `${value < 0n ? '-' : ''}${abs / 100n},${(abs % 100n).toString().padStart(2, '0')}` }
}

/** A CPF or CNPJ with its punctuation: text to a spreadsheet, so it keeps its leading zeros and is never a number in E notation. */
export const documentCsv = (d: string | null | undefined): CsvCell => (d ? { v: documentoFormatado(d) } : null)

/**
 * Digits that are a code, not a quantity (a bank's, an agência, an account): `="0001"`, the one way Excel keeps the
 * leading zeros of a cell it opens from CSV. A formula, but one this code writes from digits alone, never typed text.
 */
export const codeCsv = (digits: string | null | undefined): CsvCell => (digits && /^[0-9-]+$/.test(digits) ? { v: `="${digits}"` } : digits)

/** A `YYYY-MM-DD` day as dd/mm/aaaa. */
export const dayCsv = (day: string | null): CsvCell => (day ? { v: `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` } : null)

/** An integer as it is. */
export const intCsv = (n: number | bigint | null): CsvCell => (n === null ? null : { v: String(n) })

/** An instant in Brasília time, "28/11/2026 21:30:00" (never UTC: the reader is in Brazil). */
export const instantCsv = (d: Date | string | null): CsvCell => (d === null ? null : { v: instantLabel(d).replace(', ', ' ') })
