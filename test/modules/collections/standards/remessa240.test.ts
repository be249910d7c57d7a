// A CNAB 240 remessa for each bank: its lines read at the manuals' positions by slicing the text (not through the
// layouts that wrote them), the nossos números with the check digits the manuals' own examples give, each
// instruction by the bank's own code, the trailers' counts and sum, and every line read and written back the same.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BANCOS, type Banco } from '../../../../src/modules/collections/boleto/bancos.ts'
import { escrever, ler } from '../../../../src/modules/collections/cnab/layout.ts'
import { LAYOUTS_240 } from '../../../../src/modules/collections/cnab/layouts/bancos240.ts'
import { percentualV2, remessa240, type ContaRemessa, type ItemRemessa } from '../../../../src/modules/collections/cnab/remessa240.ts'

const BASE = { inscricao: '11444777000161', empresa: 'Factoring Exemplo S.A.' }
const CONTAS: Record<Banco, ContaRemessa> = {
  '001': { ...BASE, banco: '001', agencia: '1606', conta: '68093', contaDigito: '5', carteira: '17', convenio: '1234567' },
  '033': { ...BASE, banco: '033', agencia: '3214', conta: '13000123', contaDigito: '4', carteira: '101', convenio: '0282033' },
  '104': { ...BASE, banco: '104', agencia: '1234', conta: '123', contaDigito: '0', carteira: 'RG', convenio: '005507' },
  '237': { ...BASE, banco: '237', agencia: '2949', conta: '6580', contaDigito: '0', carteira: '19' },
  '341': { ...BASE, banco: '341', agencia: '0057', conta: '12345', contaDigito: '7', carteira: '110' },
}
// Sequences whose check digits the manuals print: Santander 566612457800 → 2, Caixa 14222333777777777, Bradesco
// carteira 19 with 2 → 8, Itaú 0057/12345/110/12345678 → 8.
const SEQ: Record<Banco, string> = { '001': '328', '033': '566612457800', '104': '222333777777777', '237': '2', '341': '12345678' }

const entrada = (banco: Banco): ItemRemessa => ({
  instrucao: 'entrada', sequencia: SEQ[banco], seuNumero: 'NF 1234/2', usoEmpresa: 'C-000017', vencimento: '2026-12-15', valorCentavos: 1_234_567n,
  emissao: '2026-11-02', especie: 'DM', juros: { tipo: 'valor_dia', centavos: 412n }, multa: '0.02', protestoDias: 5,
  pagador: { documento: '11222333000181', nome: 'Comércio São João Ltda.', endereco: 'Rua das Acácias, 100', bairro: 'Centro', cep: '13010-000',
    cidade: 'Campinas', uf: 'SP' },
  avalista: { documento: '60701190000104', nome: 'Indústria Cedente Ltda.' },
})
const baixa = (banco: Banco): ItemRemessa => ({ ...entrada(banco), instrucao: 'baixa', sequencia: '9', valorCentavos: 500n })

describe('a CNAB 240 remessa', () => {
  it('puts each bank\'s account and nosso número at its manual\'s positions', () => {
    const p = (banco: Banco) => remessa240(CONTAS[banco], 42, { dia: '2026-11-29', hora: '101500' }, [entrada(banco)]).texto.split('\r\n')[2]!
    const at = (line: string, de: number, ate: number) => line.slice(de - 1, ate)
    const bb = p('001')
    assert.equal(at(bb, 38, 57), '12345670000000328   ', 'BB: convênio and sequence, left-aligned, no check digit')
    assert.equal(at(bb, 58, 58), '7', 'BB: carteira 17 is code 7')
    const san = p('033')
    assert.equal(at(san, 45, 57), '5666124578002', 'Santander: 12 digits and the manual\'s check digit')
    assert.equal(at(san, 18, 21), '3214')
    const cef = p('104')
    assert.equal(at(cef, 24, 29), '005507', 'Caixa: the código do beneficiário')
    assert.equal(at(cef, 41, 57), '14222333777777777', 'Caixa: modalidade 14 and the 15 digits')
    const bra = p('237')
    assert.equal(at(bra, 38, 40), '019')
    assert.equal(at(bra, 46, 57), '000000000028', 'Bradesco: 11 digits and the manual\'s check digit 8')
    const ita = p('341')
    assert.equal(at(ita, 19, 22), '0057')
    assert.equal(at(ita, 31, 35), '12345')
    assert.equal(at(ita, 38, 49), '110123456788', 'Itaú: carteira, nosso número and the manual\'s DAC 8')
    assert.equal(at(ita, 118, 118), '0', 'Itaú: no juros code')
    for (const line of [bb, san, cef, bra, ita]) {
      assert.equal(at(line, 14, 14), 'P')
      assert.equal(at(line, 16, 17), '01')
      assert.equal(at(line, 78, 85), '15122026')
      assert.equal(at(line, 86, 100), '000000001234567')
    }
    assert.equal(at(bb, 127, 141), '000000000000412', 'juros of R$ 4,12 a day')
    assert.equal(at(bb, 118, 126), '116122026', 'juros code 1 (valor por dia) from the day after the due date')
    assert.equal(at(bb, 221, 223), '105', 'protest after 5 calendar days')
  })

  it('writes the payer, the cedente as sacador/avalista and the fine', () => {
    const lines = remessa240(CONTAS['001'], 1, { dia: '2026-11-29', hora: '101500' }, [entrada('001')]).texto.split('\r\n')
    const q = lines[3]!
    assert.equal(q.slice(13, 14), 'Q')
    assert.equal(q.slice(17, 33), '2011222333000181')
    assert.equal(q.slice(33, 73).trimEnd(), 'COMERCIO SAO JOAO LTDA.')
    assert.equal(q.slice(128, 136), '13010000')
    assert.equal(q.slice(153, 169), '2060701190000104')
    const r = lines[4]!
    assert.equal(r.slice(13, 14), 'R')
    assert.equal(r.slice(65, 89), '216122026000000000000200', 'multa code 2 (percent), from the 16th, 2,00 %')
  })

  it('codes each instruction as its bank does: withdrawing a protest is 10, 18 or 11', () => {
    const code = (banco: Banco) => remessa240(CONTAS[banco], 1, { dia: '2026-11-29', hora: '101500' },
      [{ ...entrada(banco), instrucao: 'sustar_protesto' }]).texto.split('\r\n')[2]!.slice(15, 17)
    assert.deepEqual(BANCOS.map(code), ['10', '18', '11', '11', '18'])
  })

  it('counts its records in both trailers, sums its values, numbers itself, and reads back line for line', () => {
    for (const banco of BANCOS) {
      const r = remessa240(CONTAS[banco], 42, { dia: '2026-11-29', hora: '101500' }, [entrada(banco), baixa(banco), entrada(banco)])
      const lines = r.texto.split('\r\n').filter(Boolean)
      assert.equal(lines.length, 2 + 3 + 1 + 3 + 2, `${banco}: headers, P Q R, P, P Q R, trailers`)
      assert.ok(lines.every((l) => l.length === 240))
      const lote = lines[lines.length - 2]!
      assert.equal(lote.slice(17, 23), String(lines.length - 2).padStart(6, '0'), `${banco}: the lote's records`)
      assert.equal(lote.slice(23, 29), '000003')
      assert.equal(lote.slice(29, 46), String(1_234_567 * 2 + 500).padStart(17, '0'))
      const file = lines[lines.length - 1]!
      assert.equal(file.slice(17, 29), `000001${String(lines.length).padStart(6, '0')}`)
      assert.equal(lines[0]!.slice(157, 163), '000042', `${banco}: the file's sequence`)
      assert.equal(lines[0]!.slice(142, 143), '1', 'a remessa')
      const l = LAYOUTS_240[banco]
      const records = [l.headerArquivo, l.headerLote, l.p, l.q, l.r, l.p, l.p, l.q, l.r, l.trailerLote, l.trailerArquivo]
      lines.forEach((line, i) => {
        const read = ler(records[i]!, line)
        assert.ok(read.ok, `${banco} line ${i + 1}: ${!read.ok && read.motivo}`)
        assert.equal(escrever(records[i]!, read.campos), line)
      })
    }
  })

  it('writes percentages exactly, and refuses what four decimals cannot hold', () => {
    assert.equal(percentualV2('0.02'), 200n)
    assert.equal(percentualV2('0.0215'), 215n)
    assert.equal(percentualV2('0'), 0n)
    assert.equal(percentualV2('1'), 10000n)
    assert.throws(() => percentualV2('0.00001'), /at most 4 decimals/)
    assert.throws(() => percentualV2('1.5'), /fraction from 0 to 1/)
  })
})
