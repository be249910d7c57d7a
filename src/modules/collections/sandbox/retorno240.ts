// SANDBOX BANK — not a bank. The retorno a bank would write for an account's charges (issue 33: "a clearly
// labelled sandbox bank … liquidates on request and writes retorno files"), in the bank's own CNAB 240 layout: what
// the service reads back in sandbox and in tests. A real bank's file comes from the bank; nothing here is sent to one.
import type { Banco } from '../boleto/bancos.ts'
import { cnabDia, escrever, type Valor } from '../cnab/layout.ts'
import { LAYOUTS_240 } from '../cnab/layouts/bancos240.ts'

export interface ContaSandbox { banco: Banco, agencia: string, conta: string, contaDigito: string, convenio?: string, inscricao: string, empresa: string }

export interface MovimentoSandbox {
  codigo: string
  /** The account's sequence: the sandbox writes it as its bank's nosso número. */
  sequencia: string
  seuNumero: string
  vencimento: string
  valorCentavos: bigint
  tarifaCentavos?: bigint
  motivos?: string
  pagoCentavos?: bigint
  jurosMultaCentavos?: bigint
  descontoCentavos?: bigint
  abatimentoCentavos?: bigint
  liquidoCentavos?: bigint
  dataOcorrencia?: string
  dataCredito?: string
  /** Itaú's channel of a liquidation (222-223: CC and LC are cheques). */
  canal?: string
}

/** The nosso número's fields of the bank's T segment for an account's sequence (check digits as the bank computes them are not read back). */
function nossoNumero(c: ContaSandbox, seq: string): Record<string, Valor> {
  switch (c.banco) {
    case '001': return { nosso_numero: `${c.convenio}${seq.padStart(10, '0')}` }
    case '033': return { nosso_numero: `${seq.padStart(12, '0')}0` }
    case '104': return { nosso_numero: seq, modalidade: '14' }
    case '237': return { nosso_numero: seq, carteira_produto: '9', nosso_numero_dv: '0' }
    case '341': return { nosso_numero: seq, carteira: '109' }
  }
}

/** A lote's segments are numbered in five digits: a bank starts another lote before 99,999 (a título is two segments). */
export const TITULOS_POR_LOTE = 49_999

/** The retorno file's lines (CR LF between them, as the banks send): `movimentos` in lotes of at most TITULOS_POR_LOTE. */
export function retornoSandbox240(c: ContaSandbox, nsa: number, dia: string, movimentos: readonly MovimentoSandbox[]): string {
  const l = LAYOUTS_240[c.banco]
  const account = c.banco === '033'
    ? { agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito }
    : c.banco === '104' ? { codigo_beneficiario: c.convenio } : c.banco === '341' ? { agencia: c.agencia, conta: c.conta, dac: c.contaDigito }
      : { agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito }
  const lines = [escrever(l.headerArquivo, {
    banco: c.banco, tipo_inscricao: 2, ...(c.banco === '033' ? {} : { convenio: c.convenio ?? '' }), inscricao: c.inscricao, empresa: c.empresa,
    banco_nome: 'BANCO SANDBOX', remessa_retorno: 2, data_geracao: cnabDia(dia), ...(c.banco === '033' ? {} : { hora_geracao: '120000' }),
    nsa, versao: l.versaoArquivo,
  })]
  const lotes = Math.max(1, Math.ceil(movimentos.length / TITULOS_POR_LOTE))
  for (let lote = 1; lote <= lotes; lote++) {
    lines.push(escrever(l.headerLote, {
      banco: c.banco, lote, operacao: 'T', versao: l.versaoLote, tipo_inscricao: 2, inscricao: c.inscricao, empresa: c.empresa,
      numero_remessa: nsa, data_gravacao: cnabDia(dia),
    }))
    let seq = 0
    const doLote = movimentos.slice((lote - 1) * TITULOS_POR_LOTE, lote * TITULOS_POR_LOTE)
    for (const m of doLote) {
      const common = { banco: c.banco, lote, movimento: m.codigo }
      lines.push(escrever(l.t, {
        ...common, sequencial: ++seq, ...account, ...nossoNumero(c, m.sequencia), seu_numero: m.seuNumero, vencimento: cnabDia(m.vencimento),
        valor: m.valorCentavos, tarifa: m.tarifaCentavos ?? 0n,
        ...(c.banco === '341' ? { erros: m.motivos ?? '', liquidacao: m.canal ?? '' } : { motivos: m.motivos ?? '' }),
      }))
      lines.push(escrever(l.u, {
        ...common, sequencial: ++seq, juros_multa: m.jurosMultaCentavos ?? 0n, desconto: m.descontoCentavos ?? 0n, abatimento: m.abatimentoCentavos ?? 0n,
        valor_pago: m.pagoCentavos ?? 0n, valor_liquido: m.liquidoCentavos ?? 0n,
        data_ocorrencia: cnabDia(m.dataOcorrencia ?? dia), data_credito: m.dataCredito ? cnabDia(m.dataCredito) : '',
      }))
    }
    lines.push(escrever(l.trailerLote, {
      banco: c.banco, lote, registros: seq + 2, simples_quantidade: doLote.length, simples_valor: doLote.reduce((s, m) => s + m.valorCentavos, 0n),
    }))
  }
  lines.push(escrever(l.trailerArquivo, { banco: c.banco, lotes, registros: lines.length + 1 }))
  return `${lines.join('\r\n')}\r\n`
}
