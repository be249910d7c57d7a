// Each bank's campo livre and nosso número against the bank's own published example, where its manual prints one,
// and else against another project's test suite (named, not a manual); every boleto written here is also validated
// by an independent implementation from the npm registry (boleto-brasileiro-validator), used only in tests.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import validator from 'boleto-brasileiro-validator'
import { codigoDeBarras, linhaDigitavel } from '../../../../src/modules/collections/boleto/codigo-barras.ts'
import { vencimentoDoFator } from '../../../../src/modules/collections/boleto/fator.ts'
import { BANCOS, REGRAS, type Banco, type Beneficiario } from '../../../../src/modules/collections/boleto/bancos.ts'

const { boletoBancarioCodigoBarras, boletoBancarioLinhaDigitavel } = validator

interface Vector {
  fonte: string
  banco: Banco
  beneficiario: Beneficiario
  sequencia: string
  nossoNumero?: string
  vencimento: string
  valorCentavos: number
  barra?: string
  linha: string
}

const VECTORS: Vector[] = [
  {
    fonte: 'Itaú, Cobrança CNAB 400 (fev/2016), anexos 2 e 3', banco: '341',
    beneficiario: { agencia: '0057', conta: '12345', contaDigito: '7', carteira: '110' }, sequencia: '12345678', nossoNumero: '110/12345678-8',
    vencimento: vencimentoDoFator(1667, '2002-01-01'), valorCentavos: 12345,
    barra: '34196166700000123451101234567880057123457000', linha: '34191.10121 34567.880058 71234.570001 6 16670000012345',
  },
  {
    fonte: 'Itaú carteira 109 no segundo ciclo do fator (brcobranca, itau_spec.rb: não é manual)', banco: '341',
    beneficiario: { agencia: '1248', conta: '02124', contaDigito: '6', carteira: '109' }, sequencia: '00010152',
    vencimento: '2029-05-20', valorCentavos: 675787,
    barra: '34194254800006757871090001015271248021246000', linha: '34191.09008 01015.271248 80212.460002 4 25480000675787',
  },
  {
    fonte: 'Santander, Código de Barras v2.3 (set/2012), pp. 6–12', banco: '033',
    beneficiario: { agencia: '0000', conta: '0', contaDigito: '0', carteira: '102', convenio: '0282033' }, sequencia: '566612457800',
    nossoNumero: '566612457800-2', vencimento: vencimentoDoFator(2046, '2003-01-01'), valorCentavos: 27371,
    barra: '03396204600000273719028203356661245780020102', linha: '03399.02827 03356.661243 57800.201022 6 20460000027371',
  },
  {
    fonte: 'Caixa, SIGCB 67.119 v007 (jul/2013), anexos I e V', banco: '104',
    beneficiario: { agencia: '0000', conta: '0', contaDigito: '0', carteira: 'RG', convenio: '005507' }, sequencia: '222333777777777',
    vencimento: vencimentoDoFator(3242, '2006-01-01'), valorCentavos: 32112,
    barra: '10494324200000321120055077222133347777777771', linha: '10490.05505 77222.133348 77777.777713 4 32420000032112',
  },
  {
    fonte: 'Banco do Brasil, convênio de 7 dígitos, carteira 17 (brcobranca, banco_brasil_spec.rb: o manual não traz exemplo numérico)', banco: '001',
    beneficiario: { agencia: '3174', conta: '00011672', contaDigito: '0', carteira: '17', convenio: '1474166' }, sequencia: '328',
    nossoNumero: '14741660000000328', vencimento: '2016-07-05', valorCentavos: 224674,
    barra: '00191684600002246740000001474166000000032817', linha: '00190.00009 01474.166004 00000.328179 1 68460000224674',
  },
  {
    fonte: 'Bradesco carteira 06 (brcobranca, bradesco_spec.rb: o manual só traz a linha de um exemplo de DV)', banco: '237',
    beneficiario: { agencia: '1172', conta: '0403005', contaDigito: '0', carteira: '06' }, sequencia: '75896452', vencimento: '2009-04-30',
    valorCentavos: 295295, barra: '23795422300002952951172060007589645204030050', linha: '23791.17209 60007.589645 52040.300502 5 42230000295295',
  },
  {
    fonte: 'Bradesco, Manual 4008.524.0121 v11, p. 29 (linha de exemplo dos DACs; fator 1001 do primeiro ciclo, valor zero)', banco: '237',
    beneficiario: { agencia: '0031', conta: '0095279', contaDigito: '0', carteira: '04' }, sequencia: '00317720028',
    vencimento: vencimentoDoFator(1001, '2000-01-01'), valorCentavos: 0, linha: '23790.03102 40031.772003 28009.527905 7 10010000000000',
  },
]

describe('each bank\'s boleto', () => {
  for (const v of VECTORS) {
    it(v.fonte, () => {
      const regras = REGRAS[v.banco]
      assert.deepEqual(regras.conferir(v.beneficiario), {}, 'the account passes its bank\'s checks')
      const campoLivre = regras.campoLivre(v.beneficiario, v.sequencia)
      const barra = codigoDeBarras({ banco: v.banco, vencimento: v.vencimento, valorCentavos: v.valorCentavos, campoLivre })
      if (v.barra) assert.equal(barra, v.barra)
      assert.equal(linhaDigitavel(barra), v.linha)
      if (v.nossoNumero) assert.equal(regras.nossoNumero(v.beneficiario, v.sequencia).impresso, v.nossoNumero)
      assert.ok(boletoBancarioCodigoBarras(barra), 'the independent validator accepts the barcode')
      assert.ok(boletoBancarioLinhaDigitavel(v.linha), 'and the linha')
    })
  }

  it('prints the nossos números with the digits the manuals compute', () => {
    const b = (carteira: string): Beneficiario => ({ agencia: '0057', conta: '72192', contaDigito: '0', carteira })
    // Itaú, anexo 4: agência 0057, conta 72192, carteira 109, nosso número 98712345 → DAC 8.
    assert.equal(REGRAS['341'].nossoNumero(b('109'), '98712345').impresso, '109/98712345-8')
    // Bradesco, pp. 17–18: carteira 19 with 00000000002 → 8, 00000000001 → P, 00000000006 → 0.
    assert.equal(REGRAS['237'].nossoNumero(b('19'), '2').impresso, '19/00000000002-8')
    assert.equal(REGRAS['237'].nossoNumero(b('19'), '1').impresso, '19/00000000001-P')
    assert.equal(REGRAS['237'].nossoNumero(b('19'), '6').impresso, '19/00000000006-0')
    // Caixa, anexo IV: 14000000000000019 → 7; Santander, layout 240 nota 15: 3147578 → 7, 4870184 → 0.
    assert.equal(REGRAS['104'].nossoNumero(b('RG'), '19').impresso, '14000000000000019-7')
    assert.equal(REGRAS['033'].nossoNumero(b('101'), '3147578').impresso, '000003147578-7')
    assert.equal(REGRAS['033'].nossoNumero(b('101'), '4870184').impresso, '000004870184-0')
  })

  it('writes boletos the independent validator accepts for any sequence, value and day of both factor cycles', () => {
    const accounts: Record<Banco, Beneficiario> = {
      '001': { agencia: '1606', conta: '06809350', contaDigito: '0', carteira: '17', convenio: '1234567' },
      '033': { agencia: '3214', conta: '13000123', contaDigito: '4', carteira: '101', convenio: '1899775' },
      '104': { agencia: '1234', conta: '00000123', contaDigito: '0', carteira: 'RG', convenio: '290274' },
      '237': { agencia: '2949', conta: '6580', contaDigito: '0', carteira: '09' },
      '341': { agencia: '1248', conta: '02124', contaDigito: '6', carteira: '109' },
    }
    let seed = 7
    const next = (n: number) => { seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648; return seed % n }
    for (const banco of BANCOS) {
      for (let i = 0; i < 200; i++) {
        const seq = String(next(10 ** Math.min(9, REGRAS[banco].digitosDoNossoNumero)))
        const day = new Date(Date.UTC(2000, 6, 3) + next(18_000) * 86_400_000).toISOString().slice(0, 10)
        const barra = codigoDeBarras({ banco, vencimento: day, valorCentavos: next(2_000_000_000), campoLivre: REGRAS[banco].campoLivre(accounts[banco], seq) })
        assert.ok(boletoBancarioCodigoBarras(barra), `${banco} ${barra}`)
        assert.ok(boletoBancarioLinhaDigitavel(linhaDigitavel(barra)), `${banco} ${linhaDigitavel(barra)}`)
        assert.equal(barra.slice(0, 3), banco)
      }
    }
  })

  it('names what an account lacks for its bank', () => {
    const base: Beneficiario = { agencia: '57', conta: '1234', contaDigito: '1', carteira: '9' }
    assert.deepEqual(Object.keys(REGRAS['001'].conferir(base)).sort(), ['carteira', 'convenio'])
    assert.deepEqual(Object.keys(REGRAS['033'].conferir(base)).sort(), ['carteira', 'convenio'])
    assert.deepEqual(Object.keys(REGRAS['104'].conferir(base)).sort(), ['convenio'])
    assert.deepEqual(Object.keys(REGRAS['237'].conferir(base)).sort(), ['agencia', 'carteira'])
    assert.deepEqual(Object.keys(REGRAS['341'].conferir(base)).sort(), ['agencia', 'carteira', 'conta', 'contaDigito'])
    assert.match(REGRAS['341'].conferir({ agencia: '0057', conta: '12345', contaDigito: '8', carteira: '109' }).contaDigito!, /módulo 10/)
  })
})
