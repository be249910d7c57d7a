// A CNAB 400 retorno read as it streams: files composed in this test by the manuals' positions alone (characters put
// at the columns Bradesco's and Itaú's tables print, not through the layouts the reader uses) read into the values
// put there; files the sandbox bank writes for both banks read back into the movements written; the codes that
// mean different things at the two banks (research §3.3) asserted; and every way a file can be broken refused
// whole, naming its line.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Banco400 } from '../../../../src/modules/collections/cnab/layouts/bancos400.ts'
import { linhasDe } from '../../../../src/modules/collections/cnab/linhas.ts'
import { lerRetorno400 } from '../../../../src/modules/collections/cnab/retorno400.ts'
import type { MovimentoSandbox } from '../../../../src/modules/collections/sandbox/retorno240.ts'
import { retornoSandbox400, type ContaSandbox400 } from '../../../../src/modules/collections/sandbox/retorno400.ts'
import { chunksDe, lerTudo, recusa } from '../../../helpers/cnab-retorno.ts'

/** A blank line of 400 with `parts` put at their 1-based positions, and its record number in 395-400. */
function line(seq: number, parts: Array<[number, string]>): string {
  const chars = Array.from({ length: 400 }, () => ' ')
  for (const [at, text] of [...parts, [395, String(seq).padStart(6, '0')] as [number, string]]) {
    for (let i = 0; i < text.length; i++) chars[at - 1 + i] = text[i]!
  }
  return chars.join('')
}

const readAll = (banco: Banco400, text: string | string[]) => lerTudo(lerRetorno400(banco, linhasDe(chunksDe(text))))
const refusal = (banco: Banco400, text: string) => recusa(() => readAll(banco, text))

// Bradesco (4008.524.0121 v11, pp. 38-44): a liquidation paid by cheque (06, motivo 15) and a write-off, by position.
const BRADESCO_BY_HAND = [
  line(1, [[1, '02RETORNO01COBRANCA'], [27, '00000000000004567890'], [47, 'FACTORING EXEMPLO'], [77, '237BRADESCO'], [95, '291126'],
    [101, '01600000'], [109, '00042'], [380, '301126']]),
  line(2, [[1, '102114447770001610000019029490006580'], [38, 'C-000017'], [63, '00000000'], [71, '000000000028'], [109, '06'], [111, '281126'],
    [117, 'NF 1234/2'], [127, '000000000028'], [147, '151226'], [153, '0000001234567'], [166, '23702949'], [176, '0000000000000'],
    [189, '0000000000150'], [215, '0000000000000'], [228, '0000000000000'], [241, '0000000001000'], [254, '0000001235801'], [267, '0000000001234'],
    [280, '0000000000000'], [296, '301126'], [302, '078'], [315, '0341'], [319, '15        ']]),
  line(3, [[1, '102114447770001610000019029490006580'], [71, '00000000009P'], [109, '10'], [111, '291126'], [117, 'NF 9'], [147, '151226'],
    [153, '0000000000500'], [319, '15']]),
  line(4, [[1, '9201237'], [18, '00000002'], [26, '00000001235067']]),
].join('\r\n')

// Itaú (CNAB 400, fev/2016 pp. 13-17): a liquidation at the agency by another bank's cheque (06, canal CC).
const ITAU_BY_HAND = [
  line(1, [[1, '02RETORNO01COBRANCA'], [27, '005700123457'], [47, 'FACTORING EXEMPLO'], [77, '341BANCO ITAU SA'], [95, '291126'],
    [101, '01600BPI00007301126']]),
  line(2, [[1, '10211444777000161005700123457'], [38, 'C-000017'], [63, '12345678'], [83, '110123456788'], [108, 'I06281126NF 1234/2'],
    [127, '12345678'], [147, '1512260000001234567'], [166, '3410057901'], [176, '0000000000350'], [215, '0000000000000'], [228, '0000000000000'],
    [241, '0000000000000'], [254, '0000001235801'], [267, '0000000001234'], [280, '0000000000000'], [296, '301126'], [378, 'BD'], [393, 'CC']]),
  line(3, [[1, '9201341'], [208, '0000700000001'], [221, '00000001234567']]),
].join('\r\n')

const BASE = { inscricao: '11444777000161', empresa: 'FACTORING EXEMPLO' }
const CONTAS: Record<Banco400, ContaSandbox400> = {
  '237': { ...BASE, banco: '237', agencia: '2949', conta: '6580', contaDigito: '0', carteira: '19', convenio: '4567890' },
  '341': { ...BASE, banco: '341', agencia: '0057', conta: '12345', contaDigito: '7', carteira: '110' },
}

describe('a CNAB 400 retorno', () => {
  it('reads Bradesco\'s file composed by its manual\'s positions: nosso número and digit, amounts, dates, a cheque', async () => {
    const { titulos, resumo } = await readAll('237', BRADESCO_BY_HAND)
    assert.deepEqual(resumo, { nsa: '', dataGeracao: '2026-11-29', lotes: 0, registros: 4, titulos: 2 })
    const [t, b] = titulos
    assert.deepEqual([t!.linha, t!.codigo, t!.ocorrencia, t!.chequePendente], [2, '06', 'liquidacao_cheque_pendente', true])
    assert.deepEqual([t!.nossoNumero, t!.sequencia, t!.seuNumero, t!.vencimento], ['00000000002', '2', 'NF 1234/2', '2026-12-15'])
    assert.deepEqual([t!.valorTituloCentavos, t!.pagoCentavos, t!.jurosMultaCentavos, t!.descontoCentavos, t!.outrasDespesasCentavos],
      [1_234_567n, 1_235_801n, 1234n, 1000n, 150n])
    assert.deepEqual([t!.dataOcorrencia, t!.dataCredito, t!.motivos], ['2026-11-28', '2026-11-30', ['15']])
    // Motivo 15 on a write-off (10) is "título excluído", not a cheque.
    assert.deepEqual([b!.codigo, b!.ocorrencia, b!.chequePendente, b!.sequencia, b!.valorTituloCentavos], ['10', 'baixa', false, '9', 500n])
  })

  it('reads Itaú\'s file composed by its manual\'s positions: carteira, nosso número, the channel of a cheque', async () => {
    const { titulos, resumo } = await readAll('341', ITAU_BY_HAND)
    assert.deepEqual(resumo, { nsa: '00007', dataGeracao: '2026-11-29', lotes: 0, registros: 3, titulos: 1 })
    const [t] = titulos
    assert.deepEqual([t!.codigo, t!.ocorrencia, t!.chequePendente, t!.nossoNumero, t!.sequencia], ['06', 'liquidacao_cheque_pendente', true, '12345678',
      '12345678'])
    assert.deepEqual([t!.valorTituloCentavos, t!.tarifaCentavos, t!.pagoCentavos, t!.jurosMultaCentavos], [1_234_567n, 350n, 1_235_801n, 1234n])
    assert.deepEqual([t!.seuNumero, t!.vencimento, t!.dataOcorrencia, t!.dataCredito, t!.motivos], ['NF 1234/2', '2026-12-15', '2026-11-28',
      '2026-11-30', ['BD']])
  })

  it('reads what the sandbox bank writes for both banks back into the same movements, split anywhere', async () => {
    for (const banco of ['237', '341'] as const) {
      const movimentos: MovimentoSandbox[] = [
        { codigo: '02', sequencia: '17', seuNumero: 'NF 1/1', vencimento: '2026-12-15', valorCentavos: 100_000n, tarifaCentavos: 250n },
        { codigo: '06', sequencia: '18', seuNumero: 'NF 2/1', vencimento: '2026-12-20', valorCentavos: 250_000n, pagoCentavos: 251_000n,
          jurosMultaCentavos: 1000n, dataOcorrencia: '2026-12-21', dataCredito: '2026-12-22' },
        { codigo: '09', sequencia: '12345', seuNumero: 'NF 3/2', vencimento: '2027-01-05', valorCentavos: 1n },
      ]
      const file = retornoSandbox400(CONTAS[banco], 7, '2026-12-22', movimentos)
      assert.ok(file.split('\r\n').filter(Boolean).every((l) => l.length === 400))
      const pieces = [file.slice(0, 450), file.slice(450, 451), file.slice(451, 1300), file.slice(1300)]
      const { titulos, resumo } = await readAll(banco, pieces)
      assert.deepEqual(resumo, { nsa: banco === '341' ? '00007' : '', dataGeracao: '2026-12-22', lotes: 0, registros: 5, titulos: 3 }, banco)
      assert.deepEqual(titulos.map((t) => [t.codigo, t.sequencia, t.seuNumero, t.vencimento, t.valorTituloCentavos]),
        movimentos.map((m) => [m.codigo, m.sequencia, m.seuNumero, m.vencimento, m.valorCentavos]), banco)
      assert.deepEqual(titulos.map((t) => t.ocorrencia), ['entrada_confirmada', 'liquidacao', 'baixa'], banco)
      const liquidation = titulos[1]!
      assert.deepEqual([liquidation.pagoCentavos, liquidation.jurosMultaCentavos, liquidation.dataOcorrencia, liquidation.dataCredito],
        [251_000n, 1000n, '2026-12-21', '2026-12-22'], banco)
      assert.equal(titulos[0]!.tarifaCentavos, 250n)
    }
    // The check digits the sandbox writes are the manuals': Itaú 0057/12345/110/12345678 → 8 at 94, Bradesco 19/2 → 8 at 82.
    const ita = retornoSandbox400(CONTAS['341'], 1, '2026-12-22', [{ codigo: '02', sequencia: '12345678', seuNumero: 'x', vencimento: '2026-12-15',
      valorCentavos: 1n }]).split('\r\n')[1]!
    assert.equal(ita.slice(82, 94), '110123456788')
    const bra = retornoSandbox400(CONTAS['237'], 1, '2026-12-22', [{ codigo: '02', sequencia: '2', seuNumero: 'x', vencimento: '2026-12-15',
      valorCentavos: 1n }]).split('\r\n')[1]!
    assert.equal(bra.slice(20, 37), '00190294900065800')
    assert.equal(bra.slice(70, 82), '000000000028')
  })

  it('names each code by what it means at its bank (§3.3): 15, 16, 17, 24, 32, 40, 65 and 69 differ', async () => {
    const mean = async (banco: Banco400, codigo: string, extra: Partial<MovimentoSandbox> = {}) => {
      const movimento = { codigo, sequencia: '5', seuNumero: 'x', vencimento: '2026-12-15', valorCentavos: 1n, ...extra }
      return (await readAll(banco, retornoSandbox400(CONTAS[banco], 1, '2026-12-22', [movimento]))).titulos[0]!.ocorrencia
    }
    const both = async (codigo: string) => [await mean('237', codigo), await mean('341', codigo)]
    assert.deepEqual(await both('06'), ['liquidacao', 'liquidacao'])
    assert.deepEqual(await both('08'), ['informativa', 'liquidacao'])
    assert.deepEqual(await both('10'), ['baixa', 'baixa'])
    assert.deepEqual(await both('15'), ['liquidacao', 'instrucao_rejeitada'])
    assert.deepEqual(await both('16'), ['liquidacao_cheque_pendente', 'instrucao_rejeitada'])
    assert.deepEqual(await both('17'), ['liquidacao_apos_baixa', 'instrucao_rejeitada'])
    assert.deepEqual(await both('22'), ['estorno_liquidacao', 'informativa'])
    assert.deepEqual(await both('24'), ['entrada_rejeitada', 'protesto_sustado'])
    assert.deepEqual(await both('28'), ['tarifa', 'tarifa'])
    assert.deepEqual(await both('32'), ['instrucao_rejeitada', 'protestado'])
    assert.deepEqual(await both('40'), ['estorno_liquidacao', 'tarifa'])
    assert.deepEqual(await both('44'), ['informativa', 'tarifa'])
    assert.deepEqual(await both('65'), ['informativa', 'liquidacao_cheque_pendente'])
    assert.deepEqual(await both('69'), ['informativa', 'cheque_devolvido'])
    assert.equal(await mean('237', '06', { motivos: '15' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('237', '15', { motivos: '15' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('237', '06', { motivos: '00' }), 'liquidacao')
    assert.equal(await mean('341', '06', { canal: 'LC' }), 'liquidacao_cheque_pendente')
    assert.equal(await mean('341', '06', { canal: 'BC' }), 'liquidacao')
    assert.equal(await mean('341', '99'), 'informativa')
  })

  it('refuses a broken file whole, naming the line', async () => {
    const ls = BRADESCO_BY_HAND.split('\r\n')
    const file = (xs: string[]) => xs.join('\r\n')
    const withLine = (i: number, l: string) => file(ls.map((x, k) => (k === i ? l : x)))
    const put = (l: string, at: number, text: string) => `${l.slice(0, at - 1)}${text}${l.slice(at - 1 + text.length)}`
    assert.deepEqual(await refusal('237', withLine(2, put(ls[2]!, 395, '000004'))),
      { linha: 3, motivo: 'o número sequencial do registro (posições 395-400) é "000004"; deveria ser 000003' })
    assert.deepEqual(await refusal('237', file([ls[0]!, ls[2]!, ls[3]!])),
      { linha: 2, motivo: 'o número sequencial do registro (posições 395-400) é "000003"; deveria ser 000002' })
    assert.deepEqual(await refusal('237', withLine(1, ls[1]!.slice(0, 399))), { linha: 2, motivo: 'a linha tem 399 posições; um arquivo CNAB 400 tem 400' })
    assert.deepEqual(await refusal('237', withLine(0, put(ls[1]!, 395, '000001'))), { linha: 1, motivo: 'o arquivo não começa pelo header (registro 0)' })
    assert.deepEqual(await refusal('237', withLine(0, put(ls[0]!, 2, '1'))),
      { linha: 1, motivo: 'é um arquivo de remessa (posição 2 = "1"), não de retorno' })
    assert.deepEqual(await refusal('341', BRADESCO_BY_HAND), { linha: 1, motivo: 'o arquivo é do banco "237", a conta é do banco 341' })
    assert.deepEqual(await refusal('237', withLine(3, put(ls[3]!, 5, '341'))), { linha: 4, motivo: 'o trailer é do banco "341", o arquivo do banco 237' })
    assert.deepEqual(await refusal('237', withLine(2, put(ls[2]!, 1, '5'))), { linha: 3, motivo: 'tipo de registro "5" desconhecido' })
    assert.deepEqual(await refusal('237', withLine(1, put(ls[1]!, 153, '000000123456X'))),
      { linha: 2, motivo: 'valor (posições 153-165) deveria ter só dígitos e tem "000000123456X"' })
    assert.deepEqual(await refusal('237', file(ls.slice(0, 3))), { linha: 4, motivo: 'o arquivo termina sem o trailer (registro 9)' })
    assert.deepEqual(await refusal('237', `${BRADESCO_BY_HAND}\r\n${put(ls[3]!, 395, '000005')}`), { linha: 5, motivo: 'linha depois do trailer do arquivo' })
    assert.deepEqual(await refusal('237', ''), { linha: 1, motivo: 'arquivo vazio' })
    // A day no calendar has, and a blank occurrence code, refuse the file naming the line (red team: the day was read as none).
    assert.deepEqual(await refusal('237', withLine(1, put(ls[1]!, 111, '310226'))), { linha: 2, motivo: 'data da ocorrência "310226" não é uma data' })
    // A line without the day of its occurrence, refused: the day is part of what makes it once (red team: a payment applied twice).
    assert.deepEqual(await refusal('237', withLine(1, put(ls[1]!, 111, '000000'))),
      { linha: 2, motivo: 'data da ocorrência em branco: toda ocorrência do banco tem a sua data' })
    assert.deepEqual(await refusal('237', withLine(1, put(ls[1]!, 109, '  '))), { linha: 2, motivo: 'código de ocorrência "  " inválido: são dois dígitos' })
    // A nosso número of zeros names no charge: read with no sequence (the line is then ignored as unknown), not refused by the database.
    assert.equal((await readAll('237', withLine(1, put(ls[1]!, 71, '00000000000')))).titulos[0]!.sequencia, '')
    const it = ITAU_BY_HAND.split('\r\n')
    assert.deepEqual(await refusal('341', file([it[0]!, it[1]!, put(it[2]!, 213, '00000002')])),
      { linha: 3, motivo: 'o trailer diz 2 registros de transação e o arquivo tem 1' })
    assert.deepEqual(await refusal('341', file([it[0]!, it[1]!, put(it[2]!, 208, '00008')])),
      { linha: 3, motivo: 'o trailer diz arquivo 00008 e o header 00007' })
  })

  it('reads Bradesco\'s trailer whatever 75-103 hold (the manual prints the value of 06 twice), and its rateio records', async () => {
    const ls = BRADESCO_BY_HAND.split('\r\n')
    const odd = `${ls[3]!.slice(0, 74)}${'ABC 1234 ?'.padEnd(29, 'x')}${ls[3]!.slice(103)}`
    assert.equal((await readAll('237', [ls[0], ls[1], ls[2], odd].join('\r\n'))).resumo.titulos, 2)
    const rateio = line(3, [[1, '3']])
    const withRateio = [ls[0]!, ls[1]!, rateio, ls[2]!.slice(0, 394) + '000004', ls[3]!.slice(0, 394) + '000005'].join('\n')
    assert.deepEqual((await readAll('237', withRateio)).resumo, { nsa: '', dataGeracao: '2026-11-29', lotes: 0, registros: 5, titulos: 2 })
  })
})
