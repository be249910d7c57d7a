// A CNAB 400 remessa (issue 33: "400 where the bank still takes it: Bradesco and Itaú"): the account's pending
// charges and instructions, one detail record each (and Itaú's record 2 where a fine needs it), between a header
// numbered with the account's next remessa sequence and a trailer; every record numbered 1, 2, 3… in 395-400, as
// both manuals ask. The input is the 240 writer's (remessa240.ts), so an account's layout is a choice of writer
// and nothing else; each instruction is the bank's own code, and the codes differ from the 240's.
import { REGRAS, type Banco } from '../boleto/bancos.ts'
import { cnabDia, escrever, type Valor } from './layout.ts'
import { LAYOUTS_400, type Banco400 } from './layouts/bancos400.ts'
import { percentualV2, type ContaRemessa, type Instrucao, type ItemRemessa, type Remessa } from './remessa240.ts'

// Bradesco 4008.524.0121 v11 p. 20: 19 withdraws a protest keeping the título in carteira (18 would also write it
// off). Itaú nota 6: 18 withdraws it (its 10 is "não protestar", an instruction given before the protest).
const CODIGOS: Record<Banco400, Record<Instrucao, string>> = {
  '237': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '19' },
  '341': { entrada: '01', baixa: '02', abatimento: '04', alteracao_vencimento: '06', protestar: '09', sustar_protesto: '18' },
}

export const codigoDaInstrucao400 = (banco: Banco400, i: Instrucao): string => CODIGOS[banco][i]

// Espécies: Bradesco p. 11 (01 duplicata, 02 nota promissória, 12 duplicata de serviço, 99 outros); Itaú nota 10
// (01, 02, 08 duplicata de serviço, 99 diversos). Neither lists a cheque: it goes as "outros".
const ESPECIE: Record<Banco400, Record<ItemRemessa['especie'], string>> = {
  '237': { DM: '01', NP: '02', DS: '12', CH: '99' },
  '341': { DM: '01', NP: '02', DS: '08', CH: '99' },
}

// Itaú nota 5: the carteira's one-letter code in 108 (I for the carteiras in reais, E and U for the dollar ones,
// 1 for 191).
const carteiraCodigoItau = (carteira: string): string => ({ '147': 'E', '150': 'U', '191': '1' } as Record<string, string>)[carteira] ?? 'I'

export const isBanco400 = (b: Banco): b is Banco400 => b in LAYOUTS_400

const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
const inscricaoTipo = (doc: string) => (doc.length === 11 ? 1 : 2)

/** Both manuals take interest as a value per day (161-173): a monthly rate has no position in the 400. */
function jurosDia(it: ItemRemessa): bigint {
  if (!it.juros) return 0n
  if (it.juros.tipo !== 'valor_dia') throw new RangeError(`${it.seuNumero}: a CNAB 400 remessa takes interest as a value per day, not a monthly rate`)
  return it.juros.centavos
}

/**
 * Bradesco's sacador/avalista (335-394, p. 22): the CPF or CNPJ in 15 digits (from the right: 2 of control, 4 of
 * filial, zeros for a CPF, and 9 of number), 2 blanks and the name in 43.
 */
function avalistaBradesco(a: ItemRemessa['avalista']): string {
  if (!a) return ''
  const doc = a.documento.length === 11 ? `${a.documento.slice(0, 9)}0000${a.documento.slice(9)}` : a.documento.padStart(15, '0')
  return `${doc}  ${a.nome.toUpperCase()}`
}

function detalheBradesco(c: ContaRemessa, it: ItemRemessa, seq: number): Record<string, Valor> {
  const nn = REGRAS['237'].nossoNumero(c, it.sequencia)
  const p = it.pagador
  const cep = p.cep.replace(/\D/g, '').padEnd(8, '0')
  return {
    carteira: c.carteira, agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito, uso_empresa: it.usoEmpresa,
    multa_codigo: it.multa ? 2 : 0, multa_percentual: it.multa ? percentualV2(it.multa) : 0n,
    nosso_numero: nn.numero, nosso_numero_dv: nn.impresso.slice(-1), emissao_papeleta: 2, aviso_debito: 2,
    ocorrencia: CODIGOS['237'][it.instrucao], seu_numero: it.seuNumero.toUpperCase(), vencimento: cnabDia(it.vencimento, 6), valor: it.valorCentavos,
    especie: ESPECIE['237'][it.especie], emissao: cnabDia(it.emissao, 6),
    instrucao_1: it.protestoDias ? '06' : '00', instrucao_2: it.protestoDias ?? 0, juros_dia: jurosDia(it),
    desconto_data: it.desconto ? cnabDia(it.desconto.ate, 6) : '', desconto_valor: it.desconto?.centavos ?? 0n, abatimento: it.abatimentoCentavos ?? 0n,
    pagador_tipo: inscricaoTipo(p.documento), pagador_inscricao: p.documento, pagador_nome: p.nome.toUpperCase(),
    pagador_endereco: p.endereco.toUpperCase(), pagador_cep: cep.slice(0, 5), pagador_cep_sufixo: cep.slice(5), avalista: avalistaBradesco(it.avalista),
    sequencial: seq,
  }
}

function detalheItau(c: ContaRemessa, it: ItemRemessa, seq: number): Record<string, Valor> {
  const nn = REGRAS['341'].nossoNumero(c, it.sequencia)
  const p = it.pagador
  return {
    empresa_tipo: inscricaoTipo(c.inscricao), empresa_inscricao: c.inscricao, agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito,
    uso_empresa: it.usoEmpresa, nosso_numero: nn.numero, carteira: c.carteira, carteira_codigo: carteiraCodigoItau(c.carteira),
    ocorrencia: CODIGOS['341'][it.instrucao], seu_numero: it.seuNumero.toUpperCase(), vencimento: cnabDia(it.vencimento, 6), valor: it.valorCentavos,
    banco_cobranca: '341', especie: ESPECIE['341'][it.especie], aceite: 'N', emissao: cnabDia(it.emissao, 6),
    instrucao_1: it.protestoDias ? '09' : '', juros_dia: jurosDia(it), desconto_data: it.desconto ? cnabDia(it.desconto.ate, 6) : '',
    desconto_valor: it.desconto?.centavos ?? 0n, abatimento: it.abatimentoCentavos ?? 0n,
    pagador_tipo: inscricaoTipo(p.documento), pagador_inscricao: p.documento, pagador_nome: p.nome.toUpperCase(),
    pagador_endereco: p.endereco.toUpperCase(), pagador_bairro: p.bairro.toUpperCase(), pagador_cep: p.cep.replace(/\D/g, '').padEnd(8, '0'),
    pagador_cidade: p.cidade.toUpperCase(), pagador_uf: p.uf.toUpperCase(), avalista: it.avalista?.nome.toUpperCase() ?? '',
    mora_data: it.juros ? cnabDia(dayAfter(it.vencimento), 6) : '', prazo: it.protestoDias ?? 0, sequencial: seq,
  }
}

/** The remessa's text (CR LF line ends) for a Bradesco or Itaú account, numbered `nsa`, written on `agora.dia`. */
export function remessa400(c: ContaRemessa, nsa: number, agora: { dia: string, hora: string }, itens: readonly ItemRemessa[]): Remessa {
  if (!isBanco400(c.banco)) throw new RangeError(`the bank ${c.banco} takes no CNAB 400: only Bradesco (237) and Itaú (341) do`)
  const banco = c.banco
  // Bradesco's header names the customer by the código da empresa it gives when the contract is made (27-46, p. 16),
  // which the account keeps as its convênio: without it the bank refuses the file, so it is refused here first.
  if (banco === '237' && !/^[0-9]{1,20}$/.test(c.convenio ?? '')) throw new RangeError('a Bradesco CNAB 400 remessa needs the código da empresa (the account\'s convênio)')
  const l = LAYOUTS_400[banco]
  const lines = [escrever(l.remessaHeader, {
    empresa: c.empresa.toUpperCase(), banco_nome: banco === '237' ? 'BRADESCO' : 'BANCO ITAU SA', data_geracao: cnabDia(agora.dia, 6), sequencial: 1,
    ...(banco === '237' ? { codigo_empresa: c.convenio, nsa } : { agencia: c.agencia, conta: c.conta, conta_dv: c.contaDigito }),
  })]
  let valor = 0n
  for (const it of itens) {
    lines.push(escrever(l.remessaDetalhe, banco === '237' ? detalheBradesco(c, it, lines.length + 1) : detalheItau(c, it, lines.length + 1)))
    valor += it.valorCentavos
    if (it.multa && l.remessaMulta && it.instrucao === 'entrada') {
      lines.push(escrever(l.remessaMulta, {
        multa_codigo: '2', multa_data: cnabDia(dayAfter(it.vencimento)), multa_valor: percentualV2(it.multa), sequencial: lines.length + 1,
      }))
    }
  }
  lines.push(escrever(l.remessaTrailer, { sequencial: lines.length + 1 }))
  return { texto: `${lines.join('\r\n')}\r\n`, registros: lines.length, titulos: itens.length, valorCentavos: valor }
}
