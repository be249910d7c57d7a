// A CNAB 240 retorno read as it streams: a file composed in this test by the manual's positions alone (a different
// method from the layouts the reader uses: characters put at the columns FEBRABAN's tables print) read into the
// values put there; files the sandbox bank writes for each bank read back into the movements written; and every way
// a file can be broken refused whole, naming its line.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BANCOS, type Banco } from '../../../../src/modules/collections/boleto/bancos.ts'
import { linhasDe } from '../../../../src/modules/collections/cnab/linhas.ts'
import { lerRetorno240 } from '../../../../src/modules/collections/cnab/retorno240.ts'
import { retornoSandbox240, TITULOS_POR_LOTE, type ContaSandbox, type MovimentoSandbox } from '../../../../src/modules/collections/sandbox/retorno240.ts'
import { chunksDe, lerTudo, recusa } from '../../../helpers/cnab-retorno.ts'

/** A blank line of 240 with `parts` put at their 1-based positions, as a person reading the manual would. */
function line(parts: Array<[number, string]>): string {
  const chars = Array.from({ length: 240 }, () => ' ')
  for (const [at, text] of parts) for (let i = 0; i < text.length; i++) chars[at - 1 + i] = text[i]!
  return chars.join('')
}

const readAll = (banco: Banco, text: string | string[]) => lerTudo(lerRetorno240(banco, linhasDe(chunksDe(text))))
const refusal = (banco: Banco, text: string) => recusa(() => readAll(banco, text))

// Banco do Brasil's retorno of one liquidation, by FEBRABAN's positions (docs/research/cnab-layouts.md §1.1–1.9).
const BB_BY_HAND = [
  line([[1, '001'], [4, '0000'], [8, '0'], [18, '2'], [19, '11444777000161'], [143, '2'], [144, '29112026'], [158, '000042'], [164, '083']]),
  line([[1, '001'], [4, '0001'], [8, '1'], [9, 'T'], [10, '01'], [14, '042'], [18, '2'], [19, '011444777000161']]),
  line([[1, '001'], [4, '0001'], [8, '3'], [9, '00001'], [14, 'T'], [16, '06'], [18, '01606'], [38, '12345670000000328   '], [58, '7'],
    [59, 'NF 1234/2      '], [74, '15122026'], [82, '000000001234567'], [199, '000000000000350'], [214, '04        ']]),
  line([[1, '001'], [4, '0001'], [8, '3'], [9, '00002'], [14, 'U'], [16, '06'], [18, '000000000001234'], [33, '000000000000000'],
    [48, '000000000000000'], [63, '000000000000000'], [78, '000000001235801'], [93, '000000001235451'], [108, '000000000000000'],
    [123, '000000000000000'], [138, '16122026'], [146, '17122026']]),
  line([[1, '001'], [4, '0001'], [8, '5'], [18, '000004']]),
  line([[1, '001'], [4, '9999'], [8, '9'], [18, '000001'], [24, '000006']]),
].join('\r\n')

const CONTAS: Record<Banco, ContaSandbox> = {
  '001': { banco: '001', agencia: '1606', conta: '68093', contaDigito: '5', convenio: '1234567', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' },
  '033': { banco: '033', agencia: '3214', conta: '13000123', contaDigito: '4', convenio: '1899775', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' },
  '104': { banco: '104', agencia: '1234', conta: '123', contaDigito: '0', convenio: '290274', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' },
  '237': { banco: '237', agencia: '2949', conta: '6580', contaDigito: '0', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' },
  '341': { banco: '341', agencia: '1248', conta: '02124', contaDigito: '6', inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' },
}

/**
 * A retorno of one liquidation for `banco`, its T segment composed at the positions the bank's own manual prints
 * (docs/research/cnab-layouts.md §2: where each bank puts the nosso número, the seu número and the motivos), the
 * rest at FEBRABAN's: not through the layouts the reader uses.
 */
function byHand(banco: string, t: Array<[number, string]>): string {
  return [
    line([[1, banco], [4, '0000'], [8, '0'], [143, '2'], [144, '29112026']]),
    line([[1, banco], [4, '0001'], [8, '1'], [9, 'T'], [10, '01']]),
    line([[1, banco], [4, '0001'], [8, '3'], [9, '00001'], [14, 'T'], [16, '06'], [74, '15122026'], [82, '000000001234567'], ...t]),
    line([[1, banco], [4, '0001'], [8, '3'], [9, '00002'], [14, 'U'], [16, '06'], [78, '000000001235801'], [138, '16122026']]),
    line([[1, banco], [4, '0001'], [8, '5'], [18, '000004']]),
    line([[1, banco], [4, '9999'], [8, '9'], [18, '000001'], [24, '000006']]),
  ].join('\r\n')
}

describe('a CNAB 240 retorno', () => {
  it('reads a liquidation composed by the manual\'s positions: nosso número, amounts, dates, motivos', async () => {
    const { titulos, resumo } = await readAll('001', BB_BY_HAND)
    assert.deepEqual(resumo, { nsa: '000042', dataGeracao: '2026-11-29', lotes: 1, registros: 6, titulos: 1 })
    const [t] = titulos
    assert.equal(t!.linha, 3)
    assert.equal(t!.codigo, '06')
    assert.equal(t!.ocorrencia, 'liquidacao')
    assert.equal(t!.nossoNumero, '12345670000000328')
    assert.equal(t!.sequencia, '328')
    assert.equal(t!.seuNumero, 'NF 1234/2')
    assert.equal(t!.vencimento, '2026-12-15')
    assert.equal(t!.valorTituloCentavos, 1_234_567n)
    assert.equal(t!.tarifaCentavos, 350n)
    assert.equal(t!.jurosMultaCentavos, 1234n)
    assert.equal(t!.pagoCentavos, 1_235_801n)
    assert.equal(t!.liquidoCentavos, 1_235_451n)
    assert.deepEqual(t!.motivos, ['04'])
    assert.equal(t!.dataOcorrencia, '2026-12-16')
    assert.equal(t!.dataCredito, '2026-12-17')
  })

  it('reads each bank\'s nosso número, seu número and motivos where its own manual puts them, in files composed by hand', async () => {
    // Santander (H7815 v2.9): its T shifted, nosso número 41-53 (12 digits and its check digit), seu número 55-69,
    // due date 70-77, value 78-92, motivos 209-218.
    const san = await readAll('033', byHand('033', [[74, '        '], [82, '               '], [41, '5666124578002'], [55, 'NF 77/1'],
      [70, '15122026'], [78, '000000001234567'], [209, '06']]))
    assert.deepEqual(san.titulos.map((t) => [t.sequencia, t.seuNumero, t.vencimento, t.valorTituloCentavos, t.motivos]),
      [['566612457800', 'NF 77/1', '2026-12-15', 1_234_567n, ['06']]])
    // Caixa (SIGCB v010): modalidade 40-41, nosso número 42-56 and its digit 57, seu número 59-69; the channel 214-215
    // and the form 216-217 (02: a cheque).
    const cef = await readAll('104', byHand('104', [[40, '14'], [42, '000000000000019'], [57, '7'], [59, 'NF 88/2'], [214, '0302']]))
    assert.deepEqual(cef.titulos.map((t) => [t.sequencia, t.seuNumero, t.ocorrencia]), [['19', 'NF 88/2', 'liquidacao_cheque_pendente']])
    // Bradesco (240 v06): carteira 38-40, nosso número 46-56, its digit (P) at 57, FEBRABAN's seu número 59-73.
    const bra = await readAll('237', byHand('237', [[38, '009'], [46, '00000000525'], [57, 'P'], [59, 'NF 99/3']]))
    assert.deepEqual(bra.titulos.map((t) => [t.sequencia, t.seuNumero, t.pagoCentavos]), [['525', 'NF 99/3', 1_235_801n]])
    // Itaú (240, jan/2017): carteira 38-40, nosso número 41-48 and its DAC at 49, seu número 59-68, errors 214-221, the
    // liquidation's channel 222-223 (CC: a cheque).
    const ita = await readAll('341', byHand('341', [[38, '109'], [41, '12345678'], [49, '8'], [59, 'NF 11/4'], [214, '        CC']]))
    assert.deepEqual(ita.titulos.map((t) => [t.sequencia, t.seuNumero, t.ocorrencia]), [['12345678', 'NF 11/4', 'liquidacao_cheque_pendente']])
  })

  it('reads what the sandbox bank writes for each bank back into the same movements, split anywhere', async () => {
    for (const banco of BANCOS) {
      const movimentos: MovimentoSandbox[] = [
        { codigo: '02', sequencia: '17', seuNumero: 'NF 1/1', vencimento: '2026-12-15', valorCentavos: 100_000n },
        { codigo: '06', sequencia: '18', seuNumero: 'NF 2/1', vencimento: '2026-12-20', valorCentavos: 250_000n, pagoCentavos: 251_000n,
          jurosMultaCentavos: 1000n, liquidoCentavos: 250_650n, tarifaCentavos: 350n, dataOcorrencia: '2026-12-21', dataCredito: '2026-12-22' },
        { codigo: '09', sequencia: '12345', seuNumero: 'NF 3/2', vencimento: '2027-01-05', valorCentavos: 1n },
      ]
      const file = retornoSandbox240(CONTAS[banco], 7, '2026-12-22', movimentos)
      const pieces = [file.slice(0, 300), file.slice(300, 301), file.slice(301, 1000), file.slice(1000)]
      const { titulos, resumo } = await readAll(banco, pieces)
      assert.equal(resumo.titulos, 3, banco)
      assert.equal(resumo.registros, 10, banco)
      assert.deepEqual(titulos.map((t) => [t.codigo, t.sequencia, t.seuNumero, t.vencimento, t.valorTituloCentavos]),
        movimentos.map((m) => [m.codigo, m.sequencia, m.seuNumero, m.vencimento, m.valorCentavos]), banco)
      const liquidation = titulos[1]!
      assert.deepEqual([liquidation.pagoCentavos, liquidation.jurosMultaCentavos, liquidation.liquidoCentavos, liquidation.tarifaCentavos],
        [251_000n, 1000n, 250_650n, 350n], banco)
      assert.equal(liquidation.ocorrencia, 'liquidacao', banco)
    }
  })

  it('names one code by what it means at each bank: 44 is a bounced cheque, a reversal or a fee', async () => {
    const mean = async (banco: Banco, codigo: string, extra: Partial<MovimentoSandbox> = {}) => {
      const movimento = { codigo, sequencia: '5', seuNumero: 'x', vencimento: '2026-12-15', valorCentavos: 1n, ...extra }
      const file = retornoSandbox240(CONTAS[banco], 1, '2026-12-22', [movimento])
      return (await readAll(banco, file)).titulos[0]!.ocorrencia
    }
    assert.equal(await mean('001', '44'), 'cheque_devolvido')
    assert.equal(await mean('237', '44'), 'cheque_devolvido')
    assert.equal(await mean('104', '44'), 'estorno_liquidacao')
    assert.equal(await mean('341', '44'), 'tarifa')
    assert.equal(await mean('104', '46'), 'liquidacao')
    assert.equal(await mean('341', '08'), 'liquidacao')
    assert.equal(await mean('341', '06', { canal: 'CC' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('001', '06', { motivos: '30' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('104', '06', { motivos: '0302' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('104', '06', { motivos: '0301' }), 'liquidacao')
    assert.equal(await mean('033', '93'), 'informativa')
    assert.equal(await mean('001', '99'), 'informativa')
  })

  it('refuses a broken file whole, naming the line', async () => {
    const lines = BB_BY_HAND.split('\r\n')
    const file = (ls: string[]) => ls.join('\r\n')
    const withLine = (i: number, l: string) => file(lines.map((x, k) => (k === i ? l : x)))
    assert.deepEqual(await refusal('001', withLine(4, line([[1, '001'], [4, '0001'], [8, '5'], [18, '000005']]))),
      { linha: 5, motivo: 'o trailer do lote diz 5 registros e o lote tem 4' })
    assert.deepEqual(await refusal('001', withLine(5, line([[1, '001'], [4, '9999'], [8, '9'], [18, '000001'], [24, '000007']]))),
      { linha: 6, motivo: 'o trailer do arquivo diz 7 registros e o arquivo tem 6' })
    assert.deepEqual(await refusal('001', file(lines.filter((_, k) => k !== 3))), { linha: 3, motivo: 'segmento T sem o seu U' })
    assert.deepEqual(await refusal('001', file(lines.slice(0, 5))), { linha: 6, motivo: 'o arquivo termina sem o trailer de arquivo (registro 9)' })
    assert.deepEqual(await refusal('001', withLine(2, lines[2]!.slice(0, 239))), { linha: 3, motivo: 'a linha tem 239 posições; um arquivo CNAB 240 tem 240' })
    assert.deepEqual(await refusal('001', withLine(2, `${lines[2]!.slice(0, 120)}\r${lines[2]!.slice(121)}`)),
      { linha: 3, motivo: 'caractere de controle (código 13) na posição 121' })
    assert.deepEqual(await refusal('341', BB_BY_HAND), { linha: 1, motivo: 'o arquivo é do banco "001", a conta é do banco 341' })
    assert.deepEqual(await refusal('001', withLine(0, `${lines[0]!.slice(0, 142)}1${lines[0]!.slice(143)}`)),
      { linha: 1, motivo: 'é um arquivo de remessa (posição 143 = 1), não de retorno' })
    assert.deepEqual(await refusal('001', withLine(2, `${lines[2]!.slice(0, 81)}00000000012345X${lines[2]!.slice(96)}`)),
      { linha: 3, motivo: 'valor (posições 82-96) deveria ter só dígitos e tem "00000000012345X"' })
    assert.deepEqual(await refusal('001', withLine(2, `${lines[2]!.slice(0, 73)}31022026${lines[2]!.slice(81)}`)),
      { linha: 3, motivo: 'vencimento "31022026" não é uma data' })
    assert.deepEqual(await refusal('001', ''), { linha: 1, motivo: 'arquivo vazio' })
    assert.deepEqual(await refusal('001', withLine(3, `${lines[3]!.slice(0, 137)}00000000${lines[3]!.slice(145)}`)),
      { linha: 4, motivo: 'data da ocorrência em branco: toda ocorrência do banco tem a sua data' })
    const blank = (l: string) => `${l.slice(0, 15)}  ${l.slice(17)}`
    assert.deepEqual(await refusal('001', file(lines.map((x, k) => (k === 2 || k === 3 ? blank(x) : x)))),
      { linha: 3, motivo: 'código de ocorrência "  " inválido: são dois dígitos' })
    assert.equal((await readAll('001', withLine(2, `${lines[2]!.slice(0, 37)}12345670000000000   ${lines[2]!.slice(57)}`))).titulos[0]!.sequencia, '',
      'a nosso número of zeros names no charge')
    assert.deepEqual(await refusal('001', `${BB_BY_HAND}\r\n${lines[5]}`), { linha: 7, motivo: 'linha depois do trailer do arquivo' })
    assert.deepEqual(await refusal('001', 'x'.repeat(5000)), { linha: 1, motivo: 'linha com mais de 400 posições' })
  })

  it('holds a lote to the totals per carteira its trailer gives (06.5-13.5), and not to totals left zero', async () => {
    const lines = BB_BY_HAND.split('\r\n')
    const withTrailer = (parts: Array<[number, string]>) =>
      lines.map((x, k) => (k === 4 ? line([[1, '001'], [4, '0001'], [8, '5'], [18, '000004'], ...parts]) : x)).join('\r\n')
    // The título of BB_BY_HAND is worth R$ 12.345,67 (T 82-96).
    assert.equal((await readAll('001', withTrailer([[24, '000001'], [30, '00000000001234567']]))).resumo.titulos, 1, 'in cobrança simples')
    assert.equal((await readAll('001', withTrailer([[47, '000001'], [53, '00000000001234567']]))).resumo.titulos, 1, 'in cobrança vinculada')
    assert.deepEqual(await refusal('001', withTrailer([[24, '000002'], [30, '00000000001234567']])),
      { linha: 5, motivo: 'o trailer do lote diz 2 títulos e o lote tem 1' })
    assert.deepEqual(await refusal('001', withTrailer([[24, '000001'], [30, '00000000001234568']])),
      { linha: 5, motivo: 'o trailer do lote diz R$ 12.345,68 em títulos e os títulos do lote somam R$ 12.345,67' })
    assert.deepEqual(await refusal('001', withTrailer([[24, '000001'], [30, '00000000001234567'], [70, '000001'], [76, '00000000000000100']])),
      { linha: 5, motivo: 'o trailer do lote diz 2 títulos e o lote tem 1' })
  })

  it('reads a file of more títulos than a lote numbers (five digits of segments): the sandbox starts a second lote, the reader reads both', async () => {
    const count = TITULOS_POR_LOTE + 2
    const movimentos: MovimentoSandbox[] = Array.from({ length: count }, (_, i) => ({
      codigo: '06', sequencia: String(i + 1), seuNumero: 'L', vencimento: '2026-12-15', valorCentavos: 100n, pagoCentavos: 100n,
    }))
    const text = retornoSandbox240(CONTAS['001'], 3, '2026-12-16', movimentos)
    const lines = text.split('\r\n').filter(Boolean)
    assert.deepEqual(lines.filter((l) => l[7] === '1').map((l) => l.slice(3, 7)), ['0001', '0002'], 'two lote headers')
    const { titulos, resumo } = await lerTudo(lerRetorno240('001', linhasDe(chunksDe(text))))
    assert.equal(titulos.length, count)
    assert.deepEqual([resumo.lotes, resumo.registros, resumo.titulos], [2, 2 * count + 6, count])
    assert.equal(titulos.at(-1)!.sequencia, String(count))
  })

  it('takes LF alone, CR LF, and no line end after the last line', async () => {
    assert.equal((await readAll('001', BB_BY_HAND.replaceAll('\r\n', '\n'))).resumo.titulos, 1)
    assert.equal((await readAll('001', `${BB_BY_HAND}\r\n`)).resumo.titulos, 1)
  })
})
