// The CSV writer (src/platform/lib/csv.ts) read back by a reader written apart (test/helpers/csv.ts): what a
// spreadsheet opens is what was written, quotes, separators and line breaks inside a cell included; amounts with a
// decimal comma; formulas defused.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { codeCsv, CSV_BOM, csvCell, csvRow, dayCsv, documentCsv, instantCsv, intCsv, reaisCsv } from '../../../src/platform/lib/csv.ts'
import { parseCsv, readExport } from '../../helpers/csv.ts'

describe('CSV for Brazilian Excel', () => {
  it('round-trips awkward text through an independent RFC 4180 reader', () => {
    const cells = ['Ação; "aspas"', 'linha\r\nquebrada', 'simples', '', 'só\nLF', 'vírgula, ponto.']
    const text = csvRow(cells) + csvRow(['a', 'b', 'c', 'd', 'e', 'f'])
    assert.deepEqual(parseCsv(text), [cells, ['a', 'b', 'c', 'd', 'e', 'f']])
    assert.ok(text.endsWith('\r\n'))
    assert.equal(csvRow(['a', 'b']), 'a;b\r\n')
  })

  it('defuses a cell a spreadsheet would run as a formula, and only text cells', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const typed = `${start}HYPERLINK("http://x")`
      const [[read]] = parseCsv(csvRow([typed])) as [[string]]
      assert.equal(read, `'${typed}`, JSON.stringify(start))
    }
    assert.equal(csvCell('a=1'), 'a=1', 'an = inside is text')
    assert.equal(csvCell(reaisCsv(-1234)), '-12,34', 'a negative amount this code wrote is a number, not a formula')
  })

  it('writes amounts with a decimal comma and no thousands mark, days as dd/mm/aaaa, instants in Brasília', () => {
    assert.equal(csvCell(reaisCsv(1_234_567n)), '12345,67')
    assert.equal(csvCell(reaisCsv(5)), '0,05')
    assert.equal(csvCell(reaisCsv(9_007_199_254_740_991n)), '90071992547409,91')
    assert.equal(csvCell(dayCsv('2026-11-04')), '04/11/2026')
    assert.equal(csvCell(instantCsv(new Date('2026-11-29T00:30:00Z'))), '28/11/2026 21:30:00', 'the 28th at 21:30 in Brasília, not UTC')
    assert.equal(csvCell(intCsv(12)), '12')
    assert.equal(csvCell(null), '')
    assert.equal(csvCell(documentCsv('04252011000110')), '04.252.011/0001-10', 'a CNPJ keeps its leading zero as text')
    assert.equal(csvCell(documentCsv('12ABC34501DE35')), '12.ABC.345/01DE-35')
    assert.equal(csvCell(codeCsv('0001')), '"=""0001"""', 'an agência stays 0001 in Excel')
    assert.equal(csvCell(codeCsv('=1+1')), '\'=1+1', 'only digits are written as a formula')
  })

  it('starts an export with the BOM, so Excel reads UTF-8', () => {
    const body = CSV_BOM + csvRow(['Operação nº', 'Valor (R$)']) + csvRow([intCsv(12), reaisCsv(1_234_567)])
    const { header, rows } = readExport(body)
    assert.deepEqual(header, ['Operação nº', 'Valor (R$)'])
    assert.deepEqual(rows, [{ 'Operação nº': '12', 'Valor (R$)': '12345,67' }])
    assert.deepEqual([...Buffer.from(body, 'utf8').subarray(0, 3)], [0xef, 0xbb, 0xbf])
  })
})
