// A CNAB 400 remessa for Bradesco and Itaú: its lines read at the manuals' positions by slicing the text (not
// through the layouts that wrote them), the nossos números with the check digits the manuals' own examples give,
// each instruction by the bank's own 400 code, the records numbered 1, 2, 3… and every line read and written back
// the same.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { REGRAS } from '../../../../src/modules/collections/boleto/bancos.ts'
import { escrever, ler, type Registro } from '../../../../src/modules/collections/cnab/layout.ts'
import { LAYOUTS_400, type Banco400 } from '../../../../src/modules/collections/cnab/layouts/bancos400.ts'
import type { ContaRemessa, ItemRemessa } from '../../../../src/modules/collections/cnab/remessa240.ts'
import { remessa400 } from '../../../../src/modules/collections/cnab/remessa400.ts'

const BASE = { inscricao: '11444777000161', empresa: 'Factoring Exemplo S.A.' }
const CONTAS: Record<Banco400, ContaRemessa> = {
  '237': { ...BASE, banco: '237', agencia: '2949', conta: '6580', contaDigito: '0', carteira: '19', convenio: '4567890' },
  '341': { ...BASE, banco: '341', agencia: '0057', conta: '12345', contaDigito: '7', carteira: '110' },
}
// The manuals' examples: Bradesco carteira 19 with nosso número 00000000002 → 8 (p. 17); Itaú 0057/12345/110/12345678 → 8.
const SEQ: Record<Banco400, string> = { '237': '2', '341': '12345678' }
const AGORA = { dia: '2026-11-29', hora: '101500' }

const entrada = (banco: Banco400): ItemRemessa => ({
  instrucao: 'entrada', sequencia: SEQ[banco], seuNumero: 'NF 1234/2', usoEmpresa: 'C-000017', vencimento: '2026-12-15', valorCentavos: 1_234_567n,
  emissao: '2026-11-02', especie: 'DM', juros: { tipo: 'valor_dia', centavos: 412n }, multa: '0.02', protestoDias: 5,
  desconto: { centavos: 1000n, ate: '2026-12-10' },
  pagador: { documento: '11222333000181', nome: 'Comércio São João Ltda.', endereco: 'Rua das Acácias, 100', bairro: 'Centro', cep: '13010-000',
    cidade: 'Campinas', uf: 'SP' },
  avalista: { documento: '60701190000104', nome: 'Indústria Cedente Ltda.' },
})
const baixa = (banco: Banco400): ItemRemessa => ({ ...entrada(banco), instrucao: 'baixa', sequencia: '9', valorCentavos: 500n })

const lines = (banco: Banco400, itens: ItemRemessa[], nsa = 42) => remessa400(CONTAS[banco], nsa, AGORA, itens).texto.split('\r\n').filter(Boolean)
const at = (line: string, de: number, ate: number) => line.slice(de - 1, ate)

describe('a CNAB 400 remessa', () => {
  it('puts Bradesco\'s account, nosso número and check digit, value and dates at its manual\'s positions', () => {
    const [header, d] = lines('237', [entrada('237')])
    assert.equal(at(header!, 1, 26), '01REMESSA01COBRANCA       ')
    assert.equal(at(header!, 27, 46), '00000000000004567890', 'the código da empresa Bradesco gives')
    assert.equal(at(header!, 77, 100), '237BRADESCO       291126')
    assert.equal(at(header!, 109, 117), 'MX0000042', 'the remessa\'s own sequence')
    assert.equal(at(d!, 21, 37), '00190294900065800', 'zero, carteira 019, agência 02949, conta 0006580, digit 0 (p. 17)')
    assert.equal(at(d!, 38, 62).trimEnd(), 'C-000017')
    assert.equal(at(d!, 66, 70), '20200', 'a fine of 2,00 %')
    assert.equal(at(d!, 71, 82), '000000000028', 'the manual\'s example: carteira 19, 00000000002, digit 8')
    assert.equal(at(d!, 93, 94), '2 ', 'the customer prints the boleto; no débito automático')
    assert.equal(at(d!, 109, 110), '01')
    assert.equal(at(d!, 111, 120), 'NF 1234/2 ')
    assert.equal(at(d!, 121, 126), '151226', 'DDMMAA')
    assert.equal(at(d!, 127, 139), '0000001234567')
    assert.equal(at(d!, 148, 156), '01N021126', 'duplicata, never accepted, issued 02/11/26')
    assert.equal(at(d!, 157, 160), '0605', 'protest after 5 days')
    assert.equal(at(d!, 161, 173), '0000000000412')
    assert.equal(at(d!, 174, 192), '1012260000000001000')
    assert.equal(at(d!, 219, 234), '0211222333000181')
    assert.equal(at(d!, 235, 274).trimEnd(), 'COMERCIO SAO JOAO LTDA.')
    assert.equal(at(d!, 327, 334), '13010000')
    assert.equal(at(d!, 335, 394).trimEnd(), '060701190000104  INDUSTRIA CEDENTE LTDA.', 'CNPJ in 15, 2 blanks, the name (p. 22)')
    assert.equal(at(d!, 395, 400), '000002')
  })

  it('writes a Bradesco nosso número whose check digit is P', () => {
    const seq = Array.from({ length: 200 }, (_, i) => String(i + 1)).find((s) => REGRAS['237'].nossoNumero(CONTAS['237'], s).impresso.endsWith('P'))!
    const [, d] = lines('237', [{ ...entrada('237'), sequencia: seq }])
    assert.equal(at(d!, 71, 82), `${seq.padStart(11, '0')}P`)
  })

  it('puts Itaú\'s account, carteira and nosso número at its manual\'s positions, and its fine in a record 2', () => {
    const [header, d, multa, trailer] = lines('341', [entrada('341')])
    assert.equal(at(header!, 1, 46), '01REMESSA01COBRANCA       005700123457        ')
    assert.equal(at(header!, 77, 100), '341BANCO ITAU SA  291126')
    assert.equal(at(d!, 1, 17), '10211444777000161')
    assert.equal(at(d!, 18, 29), '005700123457', 'agência, 00, conta, DAC')
    assert.equal(at(d!, 63, 70), '12345678')
    assert.equal(at(d!, 84, 86), '110')
    assert.equal(at(d!, 87, 108), `${' '.repeat(21)}I`, 'nothing in the bank\'s use, carteira code I')
    // The remessa has no position for the nosso número's DAC; the manual's example gives 8, as the rules compute.
    assert.equal(REGRAS['341'].nossoNumero(CONTAS['341'], SEQ['341']).impresso, '110/12345678-8')
    assert.equal(at(d!, 109, 110), '01')
    assert.equal(at(d!, 121, 139), '1512260000001234567')
    assert.equal(at(d!, 140, 150), '3410000001N')
    assert.equal(at(d!, 157, 160), '09  ', 'protestar')
    assert.equal(at(d!, 235, 264).trimEnd(), 'COMERCIO SAO JOAO LTDA.')
    assert.equal(at(d!, 315, 351), `CENTRO      13010000CAMPINAS       SP`)
    assert.equal(at(d!, 352, 381).trimEnd(), 'INDUSTRIA CEDENTE LTDA.')
    assert.equal(at(d!, 386, 393), '16122605', 'interest from the day after the due date; protest after 5 days')
    assert.equal(at(d!, 395, 400), '000002')
    assert.equal(at(multa!, 1, 23), '22161220260000000000200', 'record 2: percentage, from 16/12/2026, 2,00 % (nota 35)')
    assert.equal(at(multa!, 395, 400), '000003')
    assert.equal(trailer, `9${' '.repeat(393)}000004`)
  })

  it('codes each instruction as its bank does: withdrawing a protest is 19 at Bradesco, 18 at Itaú', () => {
    const code = (banco: Banco400, instrucao: ItemRemessa['instrucao']) => at(lines(banco, [{ ...entrada(banco), instrucao }])[1]!, 109, 110)
    assert.deepEqual(['entrada', 'baixa', 'abatimento', 'alteracao_vencimento', 'protestar', 'sustar_protesto'].map((i) => code('237', i as never)),
      ['01', '02', '04', '06', '09', '19'])
    assert.equal(code('341', 'sustar_protesto'), '18')
    assert.equal(code('341', 'baixa'), '02')
  })

  it('numbers its records 1, 2, 3…, ends with the trailer, sums its values, and reads back line for line', () => {
    for (const banco of ['237', '341'] as const) {
      const r = remessa400(CONTAS[banco], 42, AGORA, [entrada(banco), baixa(banco), entrada(banco)])
      const ls = r.texto.split('\r\n').filter(Boolean)
      assert.equal(ls.length, banco === '237' ? 5 : 7, `${banco}: header, details (and Itaú's fines), trailer`)
      assert.ok(ls.every((l) => l.length === 400))
      ls.forEach((l, i) => assert.equal(at(l, 395, 400), String(i + 1).padStart(6, '0'), `${banco} line ${i + 1}`))
      assert.equal(ls.at(-1)![0], '9')
      assert.deepEqual([r.registros, r.titulos, r.valorCentavos], [ls.length, 3, 1_234_567n * 2n + 500n])
      const l = LAYOUTS_400[banco]
      const records: Registro[] = banco === '237'
        ? [l.remessaHeader, l.remessaDetalhe, l.remessaDetalhe, l.remessaDetalhe, l.remessaTrailer]
        : [l.remessaHeader, l.remessaDetalhe, l.remessaMulta!, l.remessaDetalhe, l.remessaDetalhe, l.remessaMulta!, l.remessaTrailer]
      ls.forEach((line, i) => {
        const read = ler(records[i]!, line)
        assert.ok(read.ok, `${banco} line ${i + 1}: ${!read.ok && read.motivo}`)
        assert.equal(escrever(records[i]!, read.campos), line)
      })
    }
  })

  it('refuses what a 400 cannot say: a monthly interest rate, a bank without a 400, a Bradesco account without its código da empresa', () => {
    assert.throws(() => remessa400(CONTAS['237'], 1, AGORA, [{ ...entrada('237'), juros: { tipo: 'taxa_mensal', taxa: '0.01' } }]),
      /NF 1234\/2: a CNAB 400 remessa takes interest as a value per day/)
    assert.throws(() => remessa400({ ...CONTAS['237'], banco: '001' }, 1, AGORA, []), /the bank 001 takes no CNAB 400/)
    assert.throws(() => remessa400({ ...CONTAS['237'], convenio: undefined }, 1, AGORA, []), /needs the código da empresa/)
  })
})
