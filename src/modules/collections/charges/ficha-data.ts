// What a charge's boleto prints (DadosDoBoleto, boleto/ficha.ts) from what the database holds: the customer as
// beneficiário (the buyer: the sacado pays it now), the cedente as sacador/avalista, the sacado as pagador, the
// título's number and kind, and the instructions to the bank in Portuguese from the charge's juros, multa, desconto
// and protesto.
import { Decimal } from 'decimal.js'
import { brasiliaDay } from '../../../platform/lib/brasilia-time.ts'
import { brl, dataBr } from '../../../platform/lib/brl.ts'
import { REGRAS, type Banco } from '../boleto/bancos.ts'
import { AVISO_SANDBOX, type DadosDoBoleto } from '../boleto/ficha.ts'
import type { BoletoRows } from './store.ts'

/** The título's kind as the boleto's espécie (FEBRABAN's codes): a CT-e is a service's, a CCB none of the list's. */
const ESPECIE: Record<string, string> = {
  duplicata_mercantil: 'DM', duplicata_servico: 'DS', cheque: 'CH', nota_promissoria: 'NP', ccb: 'OU', cte: 'DS',
}

/** A fraction as a percentage the way a boleto writes it: "2,00 %", and every decimal there is ("2,125 %"). */
export function percent(fraction: string): string {
  const p = new Decimal(fraction).times(100)
  return `${(p.decimalPlaces() <= 2 ? p.toFixed(2) : p.toFixed()).replace('.', ',')} %`
}

type Terms = Pick<BoletoRows['c'], 'vencimento' | 'jurosTipo' | 'jurosValorCentavos' | 'jurosTaxaMensal' | 'multaPercentual'
  | 'descontoValorCentavos' | 'descontoAte' | 'protestoDias'>

/** The instructions to the bank, one sentence each, in the order a cashier applies them. */
export function instrucoes(c: Terms): string[] {
  const out: string[] = []
  if (c.descontoAte !== null) out.push(`Até ${dataBr(c.descontoAte)}, desconto de ${brl(c.descontoValorCentavos)}.`)
  if (!new Decimal(c.multaPercentual).isZero()) out.push(`Após ${dataBr(c.vencimento)}, multa de ${percent(c.multaPercentual)}.`)
  if (c.jurosTipo === 'valor_dia') out.push(`Juros de ${brl(c.jurosValorCentavos!)} por dia de atraso.`)
  if (c.jurosTipo === 'taxa_mensal') out.push(`Juros de ${percent(c.jurosTaxaMensal!)} ao mês, por dia de atraso (1/30 ao dia).`)
  if (c.protestoDias > 0) out.push(`Protestar após ${c.protestoDias} ${c.protestoDias === 1 ? 'dia corrido' : 'dias corridos'} do vencimento.`)
  return out
}

/** Agência and código do beneficiário as the bank prints them: the convênio where the bank has one, else the account. */
function agenciaCodigo(k: BoletoRows['conta']): string {
  const agencia = k.agenciaDigito ? `${k.agencia}-${k.agenciaDigito}` : k.agencia
  return k.convenio ? `${agencia} / ${k.convenio}` : `${agencia} / ${k.conta}-${k.contaDigito}`
}

type Endereco = Pick<BoletoRows['sacado'], 'logradouro' | 'numero' | 'complemento' | 'bairro' | 'cep' | 'cidade' | 'uf'>

/**
 * The pagador's address on one line, as the ficha prints it under the name ("Rua das Acácias, 100 sala 2 — Centro —
 * Campinas/SP — CEP 13010-000"): what the register has of it; undefined when it has none.
 */
export function enderecoDe(s: Endereco): string | undefined {
  const rua = [s.logradouro, s.numero].filter(Boolean).join(', ') + (s.complemento ? ` ${s.complemento}` : '')
  const cidade = s.cidade ? `${s.cidade}${s.uf ? `/${s.uf}` : ''}` : (s.uf ?? '')
  const cep = s.cep && /^[0-9]{8}$/.test(s.cep) ? `CEP ${s.cep.slice(0, 5)}-${s.cep.slice(5)}` : ''
  const parts = [rua, s.bairro ?? '', cidade, cep].filter((p) => p.trim() !== '')
  return parts.length ? parts.join(' — ') : undefined
}

/** `sandbox`: made outside production, the boleto says no bank registered it (AVISO_SANDBOX). */
export function dadosDoBoleto(r: BoletoRows, sandbox: boolean): DadosDoBoleto {
  const banco = r.conta.banco as Banco
  const endereco = enderecoDe(r.sacado)
  return {
    banco, bancoNome: REGRAS[banco].nome, linhaDigitavel: r.c.linhaDigitavel, codigoDeBarras: r.c.codigoBarras, vencimento: r.c.vencimento,
    valorCentavos: r.c.valorCentavos, beneficiario: { nome: r.cliente.nome, documento: r.cliente.documento ?? '' }, agenciaCodigo: agenciaCodigo(r.conta),
    nossoNumero: r.c.nossoNumeroImpresso, numeroDocumento: r.titulo.numero, especieDocumento: ESPECIE[r.titulo.tipo] ?? 'OU',
    dataDocumento: r.titulo.emissao, dataProcessamento: brasiliaDay(r.c.criadoEm), carteira: r.conta.carteira,
    pagador: { nome: r.sacado.nome, documento: r.sacado.documento, ...(endereco ? { endereco } : {}) },
    sacadorAvalista: { nome: r.cedente.nome, documento: r.cedente.documento },
    instrucoes: instrucoes(r.c),
    ...(r.c.pixCopiaECola ? { pixCopiaECola: r.c.pixCopiaECola } : {}),
    ...(sandbox ? { aviso: AVISO_SANDBOX } : {}),
  }
}
