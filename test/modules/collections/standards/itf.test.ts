// The boleto's Interleaved 2 of 5 against an independent encoder from the npm registry (bwip-js, BWIPP's
// interleaved2of5, used only in tests): the same bars and spaces, narrow and wide, for the Itaú manual's barcode;
// and FEBRABAN's printed size (103 mm long with a narrow module of 0.254 mm at 1 : 3).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import bwipjs from 'bwip-js'
import { itfSvg, itfWidths } from '../../../../src/modules/collections/boleto/itf.ts'

const BARRA = '34196166700000123451101234567880057123457000'

describe('the boleto\'s Interleaved 2 of 5', () => {
  it('draws the bars and spaces bwip-js draws (its wide elements are 2 modules, ours 3: compared as narrow or wide)', () => {
    const theirs = (bwipjs.raw('interleaved2of5', BARRA, {}) as Array<{ sbs: number[] }>)[0]!.sbs
    const ours = itfWidths(BARRA)
    assert.equal(ours.length, 4 + 44 * 5 + 3, "the start's four, ten per pair of digits, the stop's three")
    assert.equal(theirs.length, ours.length + 1, 'bwip-js closes with the stop\'s trailing space (into the quiet zone)')
    const kind = (w: number) => (w > 1 ? 'L' : 'E')
    assert.equal(ours.map(kind).join(''), theirs.slice(0, ours.length).map(kind).join(''))
  })

  it('is 103 mm long at FEBRABAN\'s narrow module, between quiet zones', () => {
    const modules = itfWidths(BARRA).reduce((a, b) => a + b, 0)
    assert.equal(modules, 405)
    assert.equal((modules * 0.254).toFixed(1), '102.9')
    const svg = itfSvg(BARRA, { label: `Código de barras ${BARRA}` })
    assert.match(svg, /width="107\.950mm" height="13mm"/)
    assert.equal(svg.match(/<rect x=/g)?.length, 2 + 44 / 2 * 5 + 2, 'one rectangle per bar: the start\'s two, five per pair, the stop\'s two')
  })

  it('refuses an odd count of digits or a letter', () => {
    assert.throws(() => itfWidths('123'), /even count/)
    assert.throws(() => itfWidths('12a4'), /even count/)
  })
})
