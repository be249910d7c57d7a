// A CNAB 240 retorno read as it arrives (issue 33): each título's T and U segments joined into one occurrence in the
// service's vocabulary, with its amounts in centavos; the file's structure checked as it goes (one bank, a retorno
// and not a remessa, lotes opened and closed, each segment in its place) and its trailers' counts against the lines
// read. A file that breaks any of it is refused whole, naming the line: the caller reads it through once to check it
// before applying a line of it (two passes, each streaming).
import { brl } from '../../../platform/lib/brl.ts'
import type { Banco } from '../boleto/bancos.ts'
import { centavosCnab, diaCnab, ler, type Registro } from './layout.ts'
import { LAYOUTS_240 } from './layouts/bancos240.ts'
import { codigoDaLinha, dataDaOcorrencia, diaDaLinha, sequenciaDe } from './campos-retorno.ts'
import { ArquivoRecusado } from './linhas.ts'
import { ocorrencia240, pagoComCheque, type Ocorrencia } from './ocorrencias.ts'

export interface TituloRetornado {
  /** The T segment's line in the file. */
  linha: number
  codigo: string
  ocorrencia: Ocorrencia
  /** The nosso número as the bank wrote it, and the account's sequence within it (no convênio, no check digit, no leading zeros). */
  nossoNumero: string
  sequencia: string
  seuNumero: string
  vencimento: string | undefined
  valorTituloCentavos: bigint
  tarifaCentavos: bigint
  motivos: string[]
  chequePendente: boolean
  jurosMultaCentavos: bigint
  descontoCentavos: bigint
  abatimentoCentavos: bigint
  iofCentavos: bigint
  pagoCentavos: bigint
  liquidoCentavos: bigint
  outrasDespesasCentavos: bigint
  outrosCreditosCentavos: bigint
  dataOcorrencia: string | undefined
  dataCredito: string | undefined
}

export interface ResumoRetorno { nsa: string, dataGeracao: string | undefined, lotes: number, registros: number, titulos: number }

/** The account's sequence inside each bank's nosso número as its T segment carries it. */
function nossoNumeroDe(banco: Banco, t: Record<string, string>): { nossoNumero: string, sequencia: string } {
  const nn = (t.nosso_numero ?? '').trim()
  switch (banco) {
    case '001': return { nossoNumero: nn, sequencia: nn.length === 17 ? sequenciaDe(nn.slice(7)) : '' }
    case '033': return { nossoNumero: nn, sequencia: nn.length === 13 ? sequenciaDe(nn.slice(0, 12)) : '' }
    default: return { nossoNumero: nn, sequencia: sequenciaDe(nn) }
  }
}

const refuse = (linha: number, motivo: string): never => { throw new ArquivoRecusado(linha, motivo) }

function parsed(r: Registro, numero: number, texto: string): Record<string, string> {
  const read = ler(r, texto)
  if (!read.ok) return refuse(numero, read.motivo)
  return read.campos
}

const CARTEIRAS = ['simples', 'vinculada', 'caucionada', 'descontada'] as const

/**
 * The lote trailer's totals per carteira against the lote's títulos: their count and the sum of their values (FEBRABAN
 * 06.5-13.5). A bank that leaves them zero is not held to them (docs/decisions.md, "The lote trailer's totals").
 */
function totaisDoLote(numero: number, tr: Record<string, string>, titulos: number, valor: bigint): void {
  const quantidade = CARTEIRAS.reduce((n, k) => n + Number(tr[`${k}_quantidade`] ?? 0), 0)
  const total = CARTEIRAS.reduce((n, k) => n + centavosCnab(tr[`${k}_valor`] ?? ''), 0n)
  if (quantidade !== 0 && quantidade !== titulos) refuse(numero, `o trailer do lote diz ${quantidade} títulos e o lote tem ${titulos}`)
  if (total !== 0n && total !== valor) refuse(numero, `o trailer do lote diz ${brl(total)} em títulos e os títulos do lote somam ${brl(valor)}`)
}

/**
 * The títulos of a 240 retorno for `banco`, and at the end its summary. Throws ArquivoRecusado (line and reason)
 * where the file breaks its layout or its trailers do not match what was read.
 */
export async function* lerRetorno240(banco: Banco, linhas: AsyncIterable<{ numero: number, texto: string }>): AsyncGenerator<TituloRetornado, ResumoRetorno> {
  const l = LAYOUTS_240[banco]
  let state: 'inicio' | 'arquivo' | 'lote' | 'fim' = 'inicio'
  let header: Record<string, string> = {}
  let lotes = 0
  let registros = 0
  let noLote = 0
  let loteAtual = ''
  let titulosNoLote = 0
  let valorNoLote = 0n
  let titulos = 0
  let t: { numero: number, campos: Record<string, string> } | undefined
  let last = 0

  for await (const { numero, texto } of linhas) {
    last = numero
    if (state === 'fim') refuse(numero, 'linha depois do trailer do arquivo')
    if (texto.length !== 240) refuse(numero, `a linha tem ${texto.length} posições; um arquivo CNAB 240 tem 240`)
    if (texto.slice(0, 3) !== banco) refuse(numero, `o arquivo é do banco ${JSON.stringify(texto.slice(0, 3))}, a conta é do banco ${banco}`)
    registros++
    const tipo = texto[7]
    if (state === 'inicio') {
      if (tipo !== '0') refuse(numero, 'o arquivo não começa pelo header de arquivo (registro 0)')
      header = parsed(l.headerArquivo, numero, texto)
      if (header.remessa_retorno !== '2') refuse(numero, 'é um arquivo de remessa (posição 143 = 1), não de retorno')
      state = 'arquivo'
      continue
    }
    if (tipo === '1') {
      if (state !== 'arquivo') refuse(numero, 'header de lote dentro de um lote')
      const h = parsed(l.headerLote, numero, texto)
      loteAtual = texto.slice(3, 7)
      if (h.operacao !== 'T') refuse(numero, `lote de operação ${JSON.stringify(h.operacao)}: um retorno de cobrança tem T`)
      state = 'lote'
      noLote = 1
      titulosNoLote = 0
      valorNoLote = 0n
      lotes++
      continue
    }
    if (tipo === '3') {
      if (state !== 'lote') refuse(numero, 'detalhe fora de um lote')
      if (texto.slice(3, 7) !== loteAtual) refuse(numero, `detalhe do lote ${texto.slice(3, 7)} dentro do lote ${loteAtual}`)
      noLote++
      const segmento = texto[13]
      if (segmento === 'T') {
        if (t) refuse(t.numero, 'segmento T sem o seu U')
        t = { numero, campos: parsed(l.t, numero, texto) }
      } else if (segmento === 'U') {
        if (!t) refuse(numero, 'segmento U sem o seu T')
        const u = parsed(l.u, numero, texto)
        if (u.movimento !== t!.campos.movimento) refuse(numero, `o U diz movimento ${u.movimento} e o seu T ${t!.campos.movimento}`)
        titulos++
        const lido = titulo(banco, t!.numero, t!.campos, u, numero)
        titulosNoLote++
        valorNoLote += lido.valorTituloCentavos
        yield lido
        t = undefined
      }
      // Other segments (Y: cheques, e-mails) carry nothing this reader applies; they count in the lote's records.
      continue
    }
    if (tipo === '5') {
      if (state !== 'lote') refuse(numero, 'trailer de lote fora de um lote')
      if (t) refuse(t.numero, 'segmento T sem o seu U')
      noLote++
      const tr = parsed(l.trailerLote, numero, texto)
      if (Number(tr.registros) !== noLote) refuse(numero, `o trailer do lote diz ${Number(tr.registros)} registros e o lote tem ${noLote}`)
      totaisDoLote(numero, tr, titulosNoLote, valorNoLote)
      state = 'arquivo'
      continue
    }
    if (tipo === '9') {
      if (state !== 'arquivo') refuse(numero, 'trailer de arquivo dentro de um lote')
      const tr = parsed(l.trailerArquivo, numero, texto)
      if (Number(tr.lotes) !== lotes) refuse(numero, `o trailer do arquivo diz ${Number(tr.lotes)} lotes e o arquivo tem ${lotes}`)
      if (Number(tr.registros) !== registros) refuse(numero, `o trailer do arquivo diz ${Number(tr.registros)} registros e o arquivo tem ${registros}`)
      state = 'fim'
      continue
    }
    refuse(numero, `tipo de registro ${JSON.stringify(tipo)} desconhecido`)
  }
  if (state !== 'fim') refuse(last + 1, state === 'inicio' ? 'arquivo vazio' : 'o arquivo termina sem o trailer de arquivo (registro 9)')
  return { nsa: header.nsa ?? '', dataGeracao: diaCnab(header.data_geracao ?? ''), lotes, registros, titulos }
}

function titulo(banco: Banco, linha: number, t: Record<string, string>, u: Record<string, string>, linhaU: number): TituloRetornado {
  const codigo = codigoDaLinha(linha, t.movimento!)
  const motivosRaw = banco === '341' ? t.erros! : t.motivos!
  const motivos = (motivosRaw.match(/.{2}/g) ?? []).filter((m) => m.trim() !== '' && m !== '00')
  const cheque = pagoComCheque(banco, banco === '104' ? [motivosRaw.slice(0, 2), motivosRaw.slice(2, 4)] : motivos, t.liquidacao)
  let ocorrencia = ocorrencia240(banco, codigo)
  if (ocorrencia === 'liquidacao' && cheque) ocorrencia = 'liquidacao_cheque_pendente'
  return {
    linha, codigo, ocorrencia, ...nossoNumeroDe(banco, t), seuNumero: (t.seu_numero ?? '').trim(),
    vencimento: diaDaLinha(linha, 'vencimento', t.vencimento ?? ''),
    valorTituloCentavos: centavosCnab(t.valor!), tarifaCentavos: centavosCnab(t.tarifa!), motivos, chequePendente: cheque,
    jurosMultaCentavos: centavosCnab(u.juros_multa!), descontoCentavos: centavosCnab(u.desconto!), abatimentoCentavos: centavosCnab(u.abatimento!),
    iofCentavos: centavosCnab(u.iof!), pagoCentavos: centavosCnab(u.valor_pago!), liquidoCentavos: centavosCnab(u.valor_liquido!),
    outrasDespesasCentavos: centavosCnab(u.outras_despesas!), outrosCreditosCentavos: centavosCnab(u.outros_creditos!),
    dataOcorrencia: dataDaOcorrencia(linhaU, u.data_ocorrencia!), dataCredito: diaDaLinha(linhaU, 'data do crédito', u.data_credito!),
  }
}
