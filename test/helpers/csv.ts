// An RFC 4180 reader written apart from the writer (src/platform/lib/csv.ts), so a test reads an export as a
// spreadsheet would: quoted cells with "" for a quote, separators and line breaks inside quotes, CRLF rows.
import assert from 'node:assert/strict'

export function parseCsv(text: string, separator = ';'): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++ } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && cell === '') quoted = true
    else if (c === separator) { row.push(cell); cell = '' } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell); rows.push(row); row = []; cell = ''; i++
    } else cell += c
  }
  assert.equal(quoted, false, 'a quote left open')
  if (cell !== '' || row.length) { row.push(cell); rows.push(row) }
  return rows
}

/** An export's body as Brazilian Excel opens it: the BOM first, then `;`-separated rows; the header and each row as an object. */
export function readExport(body: string): { header: string[], rows: Record<string, string>[] } {
  assert.equal(body.charCodeAt(0), 0xfeff, 'UTF-8 with its BOM')
  assert.ok(body.endsWith('\r\n'), 'CRLF after the last row')
  const [header, ...rows] = parseCsv(body.slice(1))
  for (const r of rows) assert.equal(r.length, header!.length, `a row of ${r.length} cells under ${header!.length} heads: ${r.join(';')}`)
  return { header: header!, rows: rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) }
}
