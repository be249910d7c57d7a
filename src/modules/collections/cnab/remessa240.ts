// A CNAB 240 remessa (issue 33): the account's pending charges and instructions as one lote of segments P, Q and
// (where a fine or a second discount needs it) R, in the account's bank's layout, numbered with the account's next
// remessa sequence, with the lote's and the file's counts in their trailers and the lote's sum of values. Each
// instruction is the bank's own code for it: the same instruction has different codes at different banks.
import { REGRAS, type Banco, type Beneficiario } from '../boleto/bancos.ts'
import { cnabDia, escrever, type Valor } from './layout.ts'
import { LAYOUTS_240 } from './layouts/bancos240.ts'

export const INSTRUCOES = ['entrada', 'baixa', 'abatimento', 'alteracao_vencimento', 'protestar', 'sustar_protesto'] as const
export type Instrucao = (typeof INSTRUCOES)[number]

// FEBRABAN's C004 (01, 02, 04, 06, 09, and 11 to withdraw a protest keeping the título), and where a bank's manual
// says otherwise: Banco do Brasil withdraws with 10, Santander and Itaú with 18 (Santander's 10 grants a discount).
const CODIGOS: Record<Banco, Record<Instrucao, string>> = {
  '001': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '10' },
  '033': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '18' },
  '104': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '11' },
  '237': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '11' },
  '341': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '18' },
}

export const codigoDaInstrucao = (banco: Banco, i: Instrucao): string => CODIGOS[banco][i]

// FEBRABAN's C015 espécies for the títulos the service buys.
const ESPECIE: Record<string, string> = { DM: '02', DS: '04', NP: '12', CH: '01' }

export interface ContaRemessa extends Beneficiario {
  banco: Banco
  agenciaDigito?: string
  /** The customer's CNPJ (digits) and name, as the bank's contract has them. */
  inscricao: string
  empresa: string
}

export interface Pessoa { documento: string, nome: string }
export interface Pagador extends Pessoa { endereco: string, bairro: string, cep: string, cidade: string, uf: string }

export interface ItemRemessa {
  instrucao: Instrucao
  sequencia: string
  seuNumero: string
  /** Echoed back by the bank in the retorno (T 106-130): the service's reference for the charge. */
  usoEmpresa: string
  vencimento: string
  valorCentavos: bigint
  emissao: string
  especie: keyof typeof ESPECIE
  juros?: { tipo: 'valor_dia', centavos: bigint } | { tipo: 'taxa_mensal', taxa: string }
  /** A fraction, "0.02" for 2 %. */
  multa?: string
  desconto?: { centavos: bigint, ate: string }
  abatimentoCentavos?: bigint
  protestoDias?: number
  pagador: Pagador
  avalista?: Pessoa
}

/** A fraction ("0.0215") as the percentage with two decimals the CNAB's V99 fields hold (215). */
export function percentualV2(fraction: string): bigint {
  const m = /^0(?:\.([0-9]{1,4}))?$|^1(?:\.0{1,4})?$/.exec(fraction)
  if (!m) throw new RangeError(`${fraction} is not a fraction from 0 to 1 with at most 4 decimals`)
  return fraction.startsWith('1') ? 10000n : BigInt((m[1] ?? '').padEnd(4, '0'))
}

const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
const inscricaoTipo = (doc: string) => (doc.length === 11 ? 1 : 2)

/** The P segment's block that says whose account and which título, in each bank's own positions. */
function identificacao(c: ContaRemessa, seq: string): Record<string, Valor> {
  const nn = REGRAS[c.banco].nossoNumero(c, seq)
  switch (c.banco) {
    case '001': return {
      agencia: c.agencia, agencia_dv: c.agenciaDigito ?? '', conta: c.conta, conta_dv: c.contaDigito, nosso_numero: nn.numero,
      carteira: c.carteira === '17' ? 7 : 1, cadastramento: 1, tipo_documento: '2', emissao_boleto: 2, distribuicao: '2',
    }
    case '033': return {
      agencia: c.agencia, agencia_dv: c.agenciaDigito ?? '', conta: c.conta, conta_dv: c.contaDigito, nosso_numero: nn.numero,
      carteira: c.carteira === '101' ? '5' : c.carteira === '201' ? '3' : '1', cadastramento: 1, tipo_documento: '2',
    }
    case '104': return {
      agencia: c.agencia, agencia_dv: c.agenciaDigito ?? '', codigo_beneficiario: c.convenio, modalidade: nn.numero.slice(0, 2),
      nosso_numero: nn.numero.slice(2), carteira: 1, cadastramento: 1, tipo_documento: '2', emissao_boleto: 2, distribuicao: '0',
    }
    case '237': return {
      agencia: c.agencia, agencia_dv: c.agenciaDigito ?? '', conta: c.conta, conta_dv: c.contaDigito, carteira_produto: c.carteira,
      nosso_numero: nn.numero, nosso_numero_dv: nn.impresso.slice(-1), carteira: 1, cadastramento: 1, tipo_documento: '1', emissao_boleto: 2,
      distribuicao: '2',
    }
    case '341': return {
      agencia: c.agencia, conta: c.conta, dac: c.contaDigito, carteira: c.carteira, nosso_numero: nn.numero, nosso_numero_dac: nn.impresso.slice(-1),
    }
  }
}

export interface Remessa { texto: string, registros: number, titulos: number, valorCentavos: bigint }

/** The remessa's text (CR LF line ends, as the banks take it) for the account, numbered `nsa`, written at `agora`. */
export function remessa240(c: ContaRemessa, nsa: number, agora: { dia: string, hora: string }, itens: readonly ItemRemessa[]): Remessa {
  const l = LAYOUTS_240[c.banco]
  const itau = c.banco === '341'
  const lines = [
    escrever(l.headerArquivo, {
      banco: c.banco, tipo_inscricao: inscricaoTipo(c.inscricao), inscricao: c.inscricao, empresa: c.empresa.toUpperCase(),
      banco_nome: REGRAS[c.banco].nome.toUpperCase(),
      remessa_retorno: 1, data_geracao: cnabDia(agora.dia), nsa, versao: l.versaoArquivo,
      ...(c.banco === '033' ? {} : { convenio: c.banco === '001' ? '' : c.convenio ?? '', agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito,
        hora_geracao: agora.hora, densidade: 0 }),
    }),
    escrever(l.headerLote, {
      banco: c.banco, lote: 1, operacao: 'R', versao: l.versaoLote, tipo_inscricao: inscricaoTipo(c.inscricao), inscricao: c.inscricao,
      empresa: c.empresa.toUpperCase(), numero_remessa: nsa, data_gravacao: cnabDia(agora.dia),
      ...(itau ? { agencia: c.agencia, conta: c.conta, dac: c.contaDigito } : c.banco === '033' ? {} : { convenio: c.banco === '001' ? '' : c.convenio ?? '',
        agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito }),
    }),
  ]
  let seq = 0
  let valor = 0n
  for (const it of itens) {
    const movimento = codigoDaInstrucao(c.banco, it.instrucao)
    const common = { banco: c.banco, lote: 1, movimento }
    const juros = it.juros
    lines.push(escrever(l.p, {
      ...common, sequencial: ++seq, ...identificacao(c, it.sequencia), seu_numero: it.seuNumero.toUpperCase(), vencimento: cnabDia(it.vencimento),
      valor: it.valorCentavos, especie: ESPECIE[it.especie], aceite: 'N', emissao: cnabDia(it.emissao),
      juros_codigo: itau ? 0 : juros ? (juros.tipo === 'valor_dia' ? 1 : 2) : 3,
      juros_data: juros ? cnabDia(dayAfter(it.vencimento)) : '',
      juros_valor: juros ? (juros.tipo === 'valor_dia' ? juros.centavos : percentualV2(juros.taxa)) : 0n,
      desconto_codigo: itau ? 0 : it.desconto ? 1 : 0, desconto_data: it.desconto ? cnabDia(it.desconto.ate) : '', desconto_valor: it.desconto?.centavos ?? 0n,
      abatimento: it.abatimentoCentavos ?? 0n, uso_empresa: it.usoEmpresa,
      protesto_codigo: it.protestoDias ? 1 : 3, protesto_dias: it.protestoDias ?? 0, ...(c.banco === '001' ? {} : { baixa_codigo: 0 }),
      ...(itau ? {} : { moeda: 9 }),
    }))
    valor += it.valorCentavos
    if (it.instrucao === 'entrada') {
      const p = it.pagador
      const cep = p.cep.replace(/\D/g, '').padEnd(8, '0')
      lines.push(escrever(l.q, {
        ...common, sequencial: ++seq, pagador_tipo: inscricaoTipo(p.documento), pagador_inscricao: p.documento, pagador_nome: p.nome.toUpperCase(),
        pagador_endereco: p.endereco.toUpperCase(), pagador_bairro: p.bairro.toUpperCase(), pagador_cep: cep.slice(0, 5), pagador_cep_sufixo: cep.slice(5),
        pagador_cidade: p.cidade.toUpperCase(), pagador_uf: p.uf.toUpperCase(),
        ...(it.avalista ? { avalista_tipo: inscricaoTipo(it.avalista.documento), avalista_inscricao: it.avalista.documento,
          avalista_nome: it.avalista.nome.toUpperCase() } : {}),
      }))
      if (it.multa) {
        lines.push(escrever(l.r, {
          ...common, sequencial: ++seq, multa_codigo: '2', multa_data: cnabDia(dayAfter(it.vencimento)), multa_valor: percentualV2(it.multa),
        }))
      }
    }
  }
  lines.push(escrever(l.trailerLote, { banco: c.banco, lote: 1, registros: seq + 2, simples_quantidade: itens.length, simples_valor: valor }))
  lines.push(escrever(l.trailerArquivo, { banco: c.banco, lotes: 1, registros: lines.length + 1 }))
  return { texto: `${lines.join('\r\n')}\r\n`, registros: lines.length, titulos: itens.length, valorCentavos: valor }
}
