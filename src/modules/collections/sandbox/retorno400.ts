// SANDBOX BANK — not a bank. The CNAB 400 retorno Bradesco or Itaú would write for an account's charges (issue 33:
// "a clearly labelled sandbox bank … liquidates on request and writes retorno files"), in the bank's own 400
// layout: what the service reads back in sandbox and in tests. A real bank's file comes from the bank; nothing
// here is sent to one.
import { REGRAS } from '../boleto/bancos.ts'
import { cnabDia, escrever, type Valor } from '../cnab/layout.ts'
import { LAYOUTS_400, type Banco400 } from '../cnab/layouts/bancos400.ts'
import type { ContaSandbox, MovimentoSandbox } from './retorno240.ts'

/** A 400 account also names its carteira: both banks write it beside the nosso número. */
export interface ContaSandbox400 extends ContaSandbox { banco: Banco400, carteira: string }

/** The account's and the título's fields of the bank's detail, check digits as the bank's boleto rules compute them. */
function identificacao(c: ContaSandbox400, m: MovimentoSandbox): Record<string, Valor> {
  const nn = REGRAS[c.banco].nossoNumero(c, m.sequencia)
  const dv = nn.impresso.slice(-1)
  if (c.banco === '237') {
    return { zero_empresa: 0, carteira: c.carteira, agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito, nosso_numero: nn.numero,
      nosso_numero_dv: dv, nosso_numero_confirmacao: `${nn.numero}${dv}`, motivos: m.motivos ?? '', outras_despesas: 0n }
  }
  return { agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito, nosso_numero_empresa: nn.numero, carteira: c.carteira, nosso_numero: nn.numero,
    nosso_numero_dac: dv, carteira_codigo: 'I', nosso_numero_confirmacao: nn.numero, erros: m.motivos ?? '', liquidacao: m.canal ?? '' }
}

/** The retorno file's lines (CR LF between them, as the banks send), numbered 1, 2, 3… in 395-400. */
export function retornoSandbox400(c: ContaSandbox400, nsa: number, dia: string, movimentos: readonly MovimentoSandbox[]): string {
  const l = LAYOUTS_400[c.banco]
  const bradesco = c.banco === '237'
  const lines = [escrever(l.retornoHeader, {
    operacao: 2, literal_retorno: 'RETORNO', servico: 1, literal_servico: 'COBRANCA', empresa: c.empresa, banco: c.banco, banco_nome: 'BANCO SANDBOX',
    data_geracao: cnabDia(dia, 6), sequencial: 1,
    ...(bradesco ? { codigo_empresa: c.convenio ?? '', densidade: '01600000' } : { agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito, nsa }),
  })]
  let valor = 0n
  for (const m of movimentos) {
    lines.push(escrever(l.retornoDetalhe, {
      empresa_tipo: 2, empresa_inscricao: c.inscricao, uso_empresa: `SANDBOX ${m.sequencia}`, ...identificacao(c, m), ocorrencia: m.codigo,
      data_ocorrencia: cnabDia(m.dataOcorrencia ?? dia, 6), seu_numero: m.seuNumero, vencimento: cnabDia(m.vencimento, 6), valor: m.valorCentavos,
      banco_cobrador: c.banco, tarifa: m.tarifaCentavos ?? 0n, abatimento: m.abatimentoCentavos ?? 0n, desconto: m.descontoCentavos ?? 0n,
      valor_pago: m.pagoCentavos ?? 0n, juros_mora: m.jurosMultaCentavos ?? 0n, data_credito: m.dataCredito ? cnabDia(m.dataCredito, 6) : '',
      sequencial: lines.length + 1,
    }))
    valor += m.valorCentavos
  }
  lines.push(escrever(l.retornoTrailer, {
    operacao: 2, ...(bradesco ? { tipo_registro: 1 } : { servico: 1, controle: nsa, detalhes: movimentos.length, valor_informado: valor }),
    banco: c.banco, sequencial: lines.length + 1,
  }))
  return `${lines.join('\r\n')}\r\n`
}
