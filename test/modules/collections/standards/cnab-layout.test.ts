// The CNAB layouts as data: every record covers its line exactly; every range of the FEBRABAN 240 tables as they
// were transcribed from the manual by another hand (docs/research/cnab-layouts.md, §1) is a field here; and any line
// written is read back into the same fields and written again byte for byte (write → read → write is identity).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { centavosCnab, cnabDia, conferirLayout, diaCnab, escrever, ler, type Registro } from '../../../../src/modules/collections/cnab/layout.ts'
import { FEBRABAN_240 } from '../../../../src/modules/collections/cnab/layouts/febraban240.ts'
import { variante } from '../../../../src/modules/collections/cnab/layouts/variante.ts'
import { LAYOUTS_240, registrosDe } from '../../../../src/modules/collections/cnab/layouts/bancos240.ts'
import { LAYOUTS_400, registrosDe400, type Banco400, type Layout400 } from '../../../../src/modules/collections/cnab/layouts/bancos400.ts'

const LAYOUTS: readonly Registro[] = FEBRABAN_240
const BANK_LAYOUTS = Object.values(LAYOUTS_240).flatMap((l) => registrosDe(l).map((r) => ({ banco: l.banco, r })))
const LAYOUTS_400_ALL = Object.values(LAYOUTS_400).flatMap((l) => registrosDe400(l).map((r) => ({ banco: l.banco, r })))

/** The "From-To" column of each table under `### 1.N` of the research notes, by the table's heading. */
function transcribed(): Map<string, Array<[number, number]>> {
  const text = readFileSync(new URL('../../../../docs/research/cnab-layouts.md', import.meta.url), 'utf8')
  const out = new Map<string, Array<[number, number]>>()
  let heading = ''
  for (const line of text.split('\n')) {
    const h = /^### (1\.\d) /.exec(line)
    if (h) heading = h[1]!
    else if (/^## /.test(line)) heading = ''
    if (!heading || !line.startsWith('|')) continue
    const cells = line.split('|').map((s) => s.trim())
    const range = /^(\d+)-(\d+)$/.exec(cells[3] ?? '')
    if (range) out.set(heading, [...(out.get(heading) ?? []), [Number(range[1]), Number(range[2])]])
  }
  return out
}

/**
 * The "From-To" column of the 400 tables of §3.1 (Bradesco) and §3.2 (Itaú), by section and the caption above each
 * table ("Remessa – Header", "Retorno – Detalhe"…).
 */
function transcribed400(): Map<string, Array<[number, number]>> {
  const text = readFileSync(new URL('../../../../docs/research/cnab-layouts.md', import.meta.url), 'utf8')
  const out = new Map<string, Array<[number, number]>>()
  let section = ''
  let caption = ''
  for (const line of text.split('\n')) {
    const h = /^### (3\.[12]) /.exec(line)
    if (h) { section = h[1]!; caption = ''; continue }
    if (/^##+ /.test(line)) { section = ''; continue }
    const cap = /^\*\*(Remessa|Retorno) – (Header|Detalhe|Trailer) \(registro/.exec(line)
    if (cap) { caption = `${cap[1]} – ${cap[2]}`; continue }
    if (/^\*\*/.test(line)) caption = ''
    if (!section || !caption || !line.startsWith('|')) continue
    const range = /^(\d+)-(\d+)$/.exec(line.split('|').map((x) => x.trim())[2] ?? '')
    if (range) out.set(`${section} ${caption}`, [...(out.get(`${section} ${caption}`) ?? []), [Number(range[1]), Number(range[2])]])
  }
  return out
}

const RECORD_400: Record<string, keyof Layout400> = {
  'Remessa – Header': 'remessaHeader', 'Remessa – Detalhe': 'remessaDetalhe', 'Remessa – Trailer': 'remessaTrailer',
  'Retorno – Header': 'retornoHeader', 'Retorno – Detalhe': 'retornoDetalhe', 'Retorno – Trailer': 'retornoTrailer',
}

const BY_SECTION: Record<string, string> = {
  '1.1': 'header_arquivo', '1.2': 'header_lote', '1.3': 'segmento_p', '1.4': 'segmento_q', '1.5': 'segmento_r', '1.6': 'segmento_t',
  '1.7': 'segmento_u', '1.8': 'trailer_lote', '1.9': 'trailer_arquivo',
}

describe('the CNAB layouts', () => {
  it('cover each line exactly: no gap, no overlap, fixed contents of their width (FEBRABAN\'s and each bank\'s)', () => {
    for (const r of LAYOUTS) assert.deepEqual(conferirLayout(r), [], r.nome)
    for (const { banco, r } of BANK_LAYOUTS) assert.deepEqual(conferirLayout(r), [], `${banco} ${r.nome}`)
  })

  it('cover each 400 line exactly, Bradesco\'s and Itaú\'s, each record citing its manual and page', () => {
    assert.equal(LAYOUTS_400_ALL.length, 13, 'six records for Bradesco, seven for Itaú (its fine is a record of its own)')
    for (const { banco, r } of LAYOUTS_400_ALL) {
      assert.equal(r.tamanho, 400, r.nome)
      assert.deepEqual(conferirLayout(r), [], `${banco} ${r.nome}`)
      assert.match(r.fonte, /p{1,2}\. \d/, `${r.nome} names its page`)
      assert.deepEqual([r.campos[0]!.nome, r.campos.at(-1)!.nome, r.campos.at(-1)!.de], ['registro', 'sequencial', 395], r.nome)
    }
  })

  it('hold every range of the 400 tables as transcribed from the manuals (§3.1 Bradesco, §3.2 Itaú)', () => {
    const tables = transcribed400()
    assert.equal(tables.size, 12, 'six tables for each bank')
    for (const [key, ranges] of tables) {
      const banco: Banco400 = key.startsWith('3.1') ? '237' : '341'
      const r = LAYOUTS_400[banco][RECORD_400[key.slice(4)]!] as Registro
      const starts = new Set(r.campos.map((f) => f.de))
      const ends = new Set(r.campos.map((f) => f.ate))
      for (const [de, ate] of ranges) assert.ok(starts.has(de) && ends.has(ate), `${r.nome}: ${de}-${ate} (§${key})`)
      assert.equal(ranges.at(-1)![1], 400, key)
    }
  })

  it('put the 400 fields the service writes and reads where the manuals say', () => {
    const at = (banco: Banco400, record: keyof Layout400, name: string) => {
      const f = (LAYOUTS_400[banco][record] as Registro).campos.find((x) => x.nome === name)
      return f && `${f.de}-${f.ate}`
    }
    // Bradesco 4008.524.0121 v11, pp. 10-11 and 39-41; Itaú fev/2016 pp. 8 and 14 (jul/2021 pp. 10-11 and 20-21).
    const expected: Array<[Banco400, keyof Layout400, string, string]> = [
      ['237', 'remessaDetalhe', 'carteira', '22-24'], ['237', 'remessaDetalhe', 'agencia', '25-29'], ['237', 'remessaDetalhe', 'conta', '30-36'],
      ['237', 'remessaDetalhe', 'nosso_numero', '71-81'], ['237', 'remessaDetalhe', 'nosso_numero_dv', '82-82'],
      ['237', 'remessaDetalhe', 'ocorrencia', '109-110'], ['237', 'remessaDetalhe', 'vencimento', '121-126'],
      ['237', 'remessaDetalhe', 'valor', '127-139'],
      ['237', 'remessaDetalhe', 'multa_percentual', '67-70'], ['237', 'remessaHeader', 'nsa', '111-117'],
      ['237', 'retornoDetalhe', 'nosso_numero', '71-81'], ['237', 'retornoDetalhe', 'valor_pago', '254-266'], ['237', 'retornoDetalhe', 'motivos', '319-328'],
      ['237', 'retornoDetalhe', 'data_credito', '296-301'], ['237', 'retornoTrailer', 'ocorrencia_06_quantidade', '87-91'],
      ['341', 'remessaDetalhe', 'agencia', '18-21'], ['341', 'remessaDetalhe', 'conta', '24-28'], ['341', 'remessaDetalhe', 'nosso_numero', '63-70'],
      ['341', 'remessaDetalhe', 'carteira', '84-86'], ['341', 'remessaDetalhe', 'ocorrencia', '109-110'], ['341', 'remessaDetalhe', 'prazo', '392-393'],
      ['341', 'retornoDetalhe', 'carteira', '83-85'], ['341', 'retornoDetalhe', 'nosso_numero', '86-93'],
      ['341', 'retornoDetalhe', 'nosso_numero_dac', '94-94'],
      ['341', 'retornoDetalhe', 'erros', '378-385'], ['341', 'retornoDetalhe', 'liquidacao', '393-394'], ['341', 'retornoHeader', 'nsa', '109-113'],
      ['341', 'retornoTrailer', 'detalhes', '213-220'], ['341', 'remessaMulta', 'multa_valor', '11-23'],
    ]
    for (const [banco, record, name, range] of expected) assert.equal(at(banco, record, name), range, `${banco} ${record}.${name}`)
  })

  it('put each bank\'s nosso número where its manual says (docs/research/cnab-layouts.md §2)', () => {
    const at = (banco: keyof typeof LAYOUTS_240, record: 'p' | 't', name: string) => {
      const f = LAYOUTS_240[banco][record].campos.find((x) => x.nome === name)
      return f && `${f.de}-${f.ate}`
    }
    // Banco do Brasil: FEBRABAN's 38-57. Santander: P 45-57, T 41-53 with the motivos at 209-218. Caixa: the código do
    // beneficiário at 24-29, the nosso número at P 43-57 and T 42-56 with its digit at 57. Bradesco: 46-56 and its
    // digit at 57. Itaú: carteira 38-40, nosso número 41-48, DAC 49, seu número P 63-72 and T 59-68, errors 214-221.
    const expected: Array<[keyof typeof LAYOUTS_240, 'p' | 't', string, string]> = [
      ['001', 'p', 'nosso_numero', '38-57'], ['001', 't', 'nosso_numero', '38-57'],
      ['033', 'p', 'nosso_numero', '45-57'], ['033', 't', 'nosso_numero', '41-53'], ['033', 't', 'motivos', '209-218'], ['033', 'p', 'conta', '23-31'],
      ['104', 'p', 'codigo_beneficiario', '24-29'], ['104', 'p', 'nosso_numero', '43-57'], ['104', 't', 'nosso_numero', '42-56'],
      ['104', 't', 'nosso_numero_dv', '57-57'], ['104', 'p', 'seu_numero', '63-73'], ['104', 't', 'seu_numero', '59-69'],
      ['237', 'p', 'carteira_produto', '38-40'], ['237', 'p', 'nosso_numero', '46-56'], ['237', 'p', 'nosso_numero_dv', '57-57'],
      ['341', 'p', 'agencia', '19-22'], ['341', 'p', 'conta', '31-35'], ['341', 'p', 'carteira', '38-40'], ['341', 'p', 'nosso_numero', '41-48'],
      ['341', 'p', 'nosso_numero_dac', '49-49'], ['341', 'p', 'seu_numero', '63-72'], ['341', 't', 'seu_numero', '59-68'], ['341', 't', 'erros', '214-221'],
      ['341', 't', 'liquidacao', '222-223'], ['341', 't', 'pagador_nome', '149-178'],
    ]
    for (const [banco, record, name, range] of expected) assert.equal(at(banco, record, name), range, `${banco} ${record}.${name}`)
    const versions = Object.fromEntries(Object.values(LAYOUTS_240).map((l) => [l.banco, `${l.versaoArquivo}/${l.versaoLote}`]))
    assert.deepEqual(versions, { '001': '083/042', '033': '040/030', '104': '101/060', '237': '084/042', '341': '040/030' })
  })

  it('catch a layout with a gap or an overlap', () => {
    const p = LAYOUTS.find((r) => r.nome === 'segmento_p')!
    const gap = { ...p, campos: p.campos.filter((f) => f.nome !== 'carteira') }
    assert.match(conferirLayout(gap).join('\n'), /starts at 59, the previous field ended at 57/)
    const overlap = { ...p, campos: p.campos.map((f) => (f.nome === 'carteira' ? { ...f, ate: 59 } : f)) }
    assert.match(conferirLayout(overlap).join('\n'), /starts at 59, the previous field ended at 59/)
    assert.throws(() => variante(p, 'x', [{ de: 40, ate: 60, campos: [] }]), /the block 40-60 cuts nosso_numero \(38-57\)$/)
  })

  it('hold every range of the FEBRABAN tables as transcribed from the manual', () => {
    const tables = transcribed()
    assert.equal(tables.size, 9, 'the nine records of §1')
    for (const [section, ranges] of tables) {
      const r = LAYOUTS.find((l) => l.nome === BY_SECTION[section])!
      // A row of the notes may join consecutive fields ("1-17": bank to movement code): its ends are fields' ends.
      const starts = new Set(r.campos.map((f) => f.de))
      const ends = new Set(r.campos.map((f) => f.ate))
      for (const [de, ate] of ranges) assert.ok(starts.has(de) && ends.has(ate), `${r.nome}: ${de}-${ate} (§${section})`)
    }
  })

  it('read back what they write, and write it again byte for byte, for random values', () => {
    let seed = 11
    const rnd = (n: number) => { seed = (seed * 48_271) % 2_147_483_647; return seed % n }
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789-./'
    for (const r of [...LAYOUTS, ...BANK_LAYOUTS.map((b) => b.r), ...LAYOUTS_400_ALL.map((b) => b.r)]) {
      for (let round = 0; round < 20; round++) {
        const values: Record<string, string> = {}
        for (const f of r.campos) {
          if (!f.nome || f.fixo !== undefined) continue
          const width = f.ate - f.de + 1
          const len = rnd(width + 1)
          values[f.nome] = f.tipo === 'X'
            ? Array.from({ length: len }, () => ALPHABET[rnd(ALPHABET.length)]).join('')
            : Array.from({ length: len }, () => String(rnd(10))).join('')
        }
        const line = escrever(r, values)
        assert.equal(line.length, r.tamanho)
        const read = ler(r, line)
        assert.ok(read.ok, `${r.nome}: ${!read.ok && read.motivo}`)
        assert.equal(escrever(r, read.campos), line)
        for (const [k, v] of Object.entries(values)) {
          const f = r.campos.find((x) => x.nome === k)!
          assert.equal(f.tipo === 'X' ? read.campos[k]!.trimEnd() : read.campos[k]!.replace(/^0+(?=.)/, ''),
            f.tipo === 'X' ? v.trimEnd() : (v.replace(/^0+(?=.)/, '') || '0'), `${r.nome}.${k}`)
        }
      }
    }
  })

  it('refuses a line of another length, a fixed field that differs and letters in a numeric field, naming the positions', () => {
    const p = LAYOUTS.find((r) => r.nome === 'segmento_p')!
    const line = escrever(p, { banco: '341', lote: 1, sequencial: 1, movimento: 1, valor: 12345n })
    assert.deepEqual(ler(p, line.slice(1)), { ok: false, motivo: 'a linha tem 239 posições; o registro segmento_p tem 240' })
    assert.deepEqual(ler(p, `${line.slice(0, 13)}Q${line.slice(14)}`), { ok: false, motivo: 'segmento (posições 14-14) deveria ser "P" e é "Q"' })
    const bad = `${line.slice(0, 85)}12345678901234X${line.slice(100)}`
    assert.deepEqual(ler(p, bad), { ok: false, motivo: 'valor (posições 86-100) deveria ter só dígitos e tem "12345678901234X"' })
  })

  it('refuses to write a value that does not fit, or a field the record has not', () => {
    const p = LAYOUTS.find((r) => r.nome === 'segmento_p')!
    assert.throws(() => escrever(p, { valor: '1'.repeat(16) }), /does not fit 15 digits/)
    assert.throws(() => escrever(p, { valor: -1 }), /not a non-negative whole number/)
    assert.throws(() => escrever(p, { valorr: 1 }), /has no field valorr/)
  })

  it('writes text as the banks read it: accents dropped, cut to the field', () => {
    const q = LAYOUTS.find((r) => r.nome === 'segmento_q')!
    const line = escrever(q, { pagador_nome: 'Comércio São João de Açúcar e Álcool Ltda. — filial nº 2', pagador_uf: 'SP' })
    const read = ler(q, line)
    assert.ok(read.ok)
    assert.equal(read.campos.pagador_nome, 'Comercio Sao Joao de Acucar e Alcool Ltd')
  })

  it('reads days and centavos', () => {
    assert.equal(diaCnab('15122026'), '2026-12-15')
    assert.equal(diaCnab('151226'), '2026-12-15')
    assert.equal(diaCnab('00000000'), undefined)
    assert.equal(diaCnab('31022026'), undefined, 'no calendar has it')
    assert.equal(diaCnab('290228'), '2028-02-29')
    assert.equal(diaCnab('        '), undefined)
    assert.equal(cnabDia('2026-12-15'), '15122026')
    assert.equal(cnabDia('2026-12-15', 6), '151226')
    assert.equal(centavosCnab('000000000012345'), 12345n)
    assert.equal(centavosCnab('               '), 0n)
  })
})
