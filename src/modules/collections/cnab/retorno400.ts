// A CNAB 400 retorno read as it arrives (issue 33), Bradesco's or Itaú's: each detail record one occurrence in the
// service's vocabulary (the same TituloRetornado as the 240's), amounts in centavos; the file's structure checked as
// it goes (a header first and of a retorno, the account's bank, every line of 400, the records numbered 1, 2, 3… in
// 395-400 as both manuals ask, the trailer last) and, for Itaú, its trailer's count of details and its file number
// against the lines read. A file that breaks any of it is refused whole, naming the line: as for the 240, the caller
// reads it through once to check it before applying a line of it.
import { centavosCnab, diaCnab, ler, type Registro } from './layout.ts'
import { LAYOUTS_400, type Banco400 } from './layouts/bancos400.ts'
import { codigoDaLinha, dataDaOcorrencia, diaDaLinha, sequenciaDe } from './campos-retorno.ts'
import { ArquivoRecusado } from './linhas.ts'
import { ocorrencia400, pagoComCheque400 } from './ocorrencias.ts'
import type { ResumoRetorno, TituloRetornado } from './retorno240.ts'

const refuse = (linha: number, motivo: string): never => { throw new ArquivoRecusado(linha, motivo) }

function parsed(r: Registro, numero: number, texto: string): Record<string, string> {
  const read = ler(r, texto)
  if (!read.ok) return refuse(numero, read.motivo)
  return read.campos
}

// Optional records the reader counts and passes over: Bradesco's rateio de crédito (tipo 3, p. 41), Itaú's rateio
// (tipo 4). Neither carries anything this reader applies.
const OPCIONAIS: Record<Banco400, string> = { '237': '3', '341': '4' }

/**
 * The títulos of a 400 retorno for `banco`, and at the end its summary (a 400 has no lotes: `lotes` is 0; Bradesco's
 * header has no file number: `nsa` is empty). Throws ArquivoRecusado (line and reason) where the file breaks its
 * layout or its structure.
 */
export async function* lerRetorno400(
  banco: Banco400, linhas: AsyncIterable<{ numero: number, texto: string }>,
): AsyncGenerator<TituloRetornado, ResumoRetorno> {
  const l = LAYOUTS_400[banco]
  let state: 'inicio' | 'arquivo' | 'fim' = 'inicio'
  let header: Record<string, string> = {}
  let registros = 0
  let titulos = 0
  let last = 0

  for await (const { numero, texto } of linhas) {
    last = numero
    if (state === 'fim') refuse(numero, 'linha depois do trailer do arquivo')
    if (texto.length !== 400) refuse(numero, `a linha tem ${texto.length} posições; um arquivo CNAB 400 tem 400`)
    registros++
    const sequencial = texto.slice(394, 400)
    if (!/^[0-9]{6}$/.test(sequencial) || Number(sequencial) !== registros) {
      refuse(numero, `o número sequencial do registro (posições 395-400) é ${JSON.stringify(sequencial)}; deveria ser ${String(registros).padStart(6, '0')}`)
    }
    const tipo = texto[0]
    if (state === 'inicio') {
      if (tipo !== '0') refuse(numero, 'o arquivo não começa pelo header (registro 0)')
      header = parsed(l.retornoHeader, numero, texto)
      if (header.banco !== banco) refuse(numero, `o arquivo é do banco ${JSON.stringify(header.banco)}, a conta é do banco ${banco}`)
      if (header.operacao !== '2') refuse(numero, `é um arquivo de remessa (posição 2 = ${JSON.stringify(header.operacao)}), não de retorno`)
      state = 'arquivo'
      continue
    }
    if (tipo === '1') {
      titulos++
      yield titulo(banco, numero, parsed(l.retornoDetalhe, numero, texto))
      continue
    }
    if (tipo === OPCIONAIS[banco]) continue
    if (tipo === '9') {
      const tr = parsed(l.retornoTrailer, numero, texto)
      if (tr.banco !== banco) refuse(numero, `o trailer é do banco ${JSON.stringify(tr.banco)}, o arquivo do banco ${banco}`)
      if (banco === '341') {
        if (Number(tr.detalhes) !== titulos) refuse(numero, `o trailer diz ${Number(tr.detalhes)} registros de transação e o arquivo tem ${titulos}`)
        if (tr.controle !== header.nsa) refuse(numero, `o trailer diz arquivo ${tr.controle} e o header ${header.nsa}`)
      }
      state = 'fim'
      continue
    }
    refuse(numero, `tipo de registro ${JSON.stringify(tipo)} desconhecido`)
  }
  if (state !== 'fim') refuse(last + 1, state === 'inicio' ? 'arquivo vazio' : 'o arquivo termina sem o trailer (registro 9)')
  return { nsa: banco === '341' ? header.nsa! : '', dataGeracao: diaCnab(header.data_geracao ?? ''), lotes: 0, registros, titulos }
}

function titulo(banco: Banco400, linha: number, d: Record<string, string>): TituloRetornado {
  const codigo = codigoDaLinha(linha, d.ocorrencia!)
  const motivosRaw = banco === '237' ? d.motivos! : d.erros!
  const motivos = (motivosRaw.match(/.{2}/g) ?? []).filter((m) => m.trim() !== '' && m !== '00')
  const cheque = pagoComCheque400(banco, codigo, motivos, d.liquidacao)
  let ocorrencia = ocorrencia400(banco, codigo)
  if (ocorrencia === 'liquidacao' && cheque) ocorrencia = 'liquidacao_cheque_pendente'
  const nn = d.nosso_numero!.trim()
  // Bradesco's 254-266 is the total received (p. 46); Itaú's the amount put into the account. Neither file has
  // another net amount: the fees come as their own occurrences (Bradesco 28, Itaú 26-56).
  const pago = centavosCnab(d.valor_pago!)
  return {
    linha, codigo, ocorrencia, nossoNumero: nn, sequencia: sequenciaDe(nn), seuNumero: d.seu_numero!.trim(),
    vencimento: diaDaLinha(linha, 'vencimento', d.vencimento!),
    valorTituloCentavos: centavosCnab(d.valor!), tarifaCentavos: centavosCnab(d.tarifa!), motivos,
    chequePendente: cheque || ocorrencia === 'liquidacao_cheque_pendente',
    jurosMultaCentavos: centavosCnab(d.juros_mora!), descontoCentavos: centavosCnab(d.desconto!), abatimentoCentavos: centavosCnab(d.abatimento!),
    iofCentavos: centavosCnab(d.iof!), pagoCentavos: pago, liquidoCentavos: pago,
    outrasDespesasCentavos: banco === '237' ? centavosCnab(d.outras_despesas!) : 0n, outrosCreditosCentavos: centavosCnab(d.outros_creditos!),
    dataOcorrencia: dataDaOcorrencia(linha, d.data_ocorrencia!), dataCredito: diaDaLinha(linha, 'data do crédito', d.data_credito!),
  }
}
