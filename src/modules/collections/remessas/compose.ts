// The remessa's file from what waits (issue 33): each charge waiting for registration an `entrada` with its sacado's
// address (segment Q), each instruction the bank's code for it, written by the account's layout (remessa240.ts or
// remessa400.ts), named as the bank names its files. What cannot go is left out and said why: a sacado without the
// address the file must print, an instruction whose charge is no longer registered.
import { createHash } from 'node:crypto'
import { Decimal } from 'decimal.js'
import type { CollectionAccount } from '../accounts/store.ts'
import type { Banco } from '../boleto/bancos.ts'
import { remessa240, type ContaRemessa, type ItemRemessa, type Pagador } from '../cnab/remessa240.ts'
import { remessa400 } from '../cnab/remessa400.ts'
import type { LeftOut } from './errors.ts'
import type { PendingCharge, PendingInstruction } from './store.ts'

// The títulos' kinds as the writers' espécies. A CCB and a CT-e have no espécie of their own in the writers: a CT-e
// is a transport service's (DS), a CCB a promise to pay (NP). To be checked against each bank's table.
const ESPECIE: Record<string, ItemRemessa['especie']> = {
  duplicata_mercantil: 'DM', duplicata_servico: 'DS', nota_promissoria: 'NP', cheque: 'CH', cte: 'DS', ccb: 'NP',
}

/**
 * The layouts as the manuals were transcribed carry a CPF or CNPJ in numeric fields: an alphanumeric CNPJ (IN RFB
 * 2.229/2024) waits for the banks' new layouts, and its charge stays out of the file, said why.
 */
const digits = (r: PendingCharge) => /^[0-9]+$/.test(r.sacado.documento) && /^[0-9]+$/.test(r.cedente.documento)

/** The parts of the address the file cannot do without (bairro, número and complemento may be blank). */
const OBRIGATORIOS = ['logradouro', 'cep', 'cidade', 'uf'] as const

export interface Composed {
  texto: string
  registros: number
  valorCentavos: bigint
  carried: { cobrancaId: string | null, instrucaoId: string | null }[]
  fora: LeftOut[]
}

const rate = (n: string) => new Decimal(n).toFixed()

function pagadorOf(r: PendingCharge): Pagador {
  const s = r.sacado
  const endereco = [s.logradouro, s.numero].filter(Boolean).join(', ') + (s.complemento ? ` ${s.complemento}` : '')
  return { documento: s.documento, nome: s.nome, endereco, bairro: s.bairro ?? '', cep: s.cep ?? '', cidade: s.cidade ?? '', uf: s.uf ?? '' }
}

/**
 * The charge's terms as the file carries them. The 400 layouts take interest as a value a day only: a monthly rate is
 * carried as the value a day it comes to (value × rate / 30, rounded down: the sacado is never charged more).
 */
function itemOf(r: PendingCharge, layout: '240' | '400'): ItemRemessa {
  const c = r.c
  const juros: ItemRemessa['juros'] = c.jurosTipo === 'valor_dia' ? { tipo: 'valor_dia', centavos: BigInt(c.jurosValorCentavos!) }
    : c.jurosTipo !== 'taxa_mensal' ? undefined
      : layout === '400'
        ? { tipo: 'valor_dia', centavos: BigInt(new Decimal(c.valorCentavos).times(c.jurosTaxaMensal!).div(30).floor().toFixed()) }
        : { tipo: 'taxa_mensal', taxa: rate(c.jurosTaxaMensal!) }
  return {
    instrucao: 'entrada', sequencia: c.nossoNumero, seuNumero: r.titulo.numero, usoEmpresa: `C-${String(c.numero).padStart(6, '0')}`,
    vencimento: c.vencimento, valorCentavos: BigInt(c.valorCentavos), emissao: r.titulo.emissao, especie: ESPECIE[r.titulo.tipo] ?? 'DM',
    ...(juros && juros.tipo === 'valor_dia' && juros.centavos === 0n ? {} : juros ? { juros } : {}),
    ...(new Decimal(c.multaPercentual).isZero() ? {} : { multa: rate(c.multaPercentual) }),
    ...(c.descontoAte ? { desconto: { centavos: BigInt(c.descontoValorCentavos), ate: c.descontoAte } } : {}),
    ...(c.protestoDias ? { protestoDias: c.protestoDias } : {}),
    pagador: pagadorOf(r), avalista: { documento: r.cedente.documento, nome: r.cedente.nome },
  }
}

/** The file, its counts, what it carried (charges first, then instructions, each oldest first), and what it left out. */
export function composeRemessa(
  conta: ContaRemessa & { layout: '240' | '400' }, nsa: number, agora: { dia: string, hora: string },
  charges: readonly PendingCharge[], instructions: readonly PendingInstruction[],
): Composed | { fora: LeftOut[] } {
  const itens: ItemRemessa[] = []
  const carried: Composed['carried'] = []
  const fora: LeftOut[] = []
  const write = (its: readonly ItemRemessa[]) => (conta.layout === '400' ? remessa400 : remessa240)(conta, nsa, agora, its)
  // Each line is written alone first: one the layout cannot hold (a value past its digits…) stays out, said why,
  // and never fails the file of the others.
  const take = (item: ItemRemessa, out: Omit<LeftOut, 'motivo'>, kept: Composed['carried'][number]) => {
    try {
      write([item])
    } catch (err) {
      if (!(err instanceof RangeError)) throw err
      fora.push({ ...out, motivo: 'layout_recusou', detalhe: err.message })
      return
    }
    itens.push(item)
    carried.push(kept)
  }
  for (const r of charges) {
    const out = { cobranca_id: r.c.id, instrucao_id: null }
    const faltam = OBRIGATORIOS.filter((k) => !r.sacado[k])
    if (faltam.length) fora.push({ ...out, motivo: 'sacado_sem_endereco', faltam: [...faltam] })
    else if (!digits(r)) fora.push({ ...out, motivo: 'documento_alfanumerico' })
    else take(itemOf(r, conta.layout), out, { cobrancaId: r.c.id, instrucaoId: null })
  }
  for (const r of instructions) {
    const out = { cobranca_id: r.c.id, instrucao_id: r.i.id }
    if (r.c.estado !== 'registrada') fora.push({ ...out, motivo: 'cobranca_nao_registrada' })
    else if (!digits(r)) fora.push({ ...out, motivo: 'documento_alfanumerico' })
    else {
      take({
        ...itemOf(r, conta.layout), instrucao: r.i.instrucao, ...(r.i.vencimento ? { vencimento: r.i.vencimento } : {}),
        ...(r.i.abatimentoCentavos === null ? {} : { abatimentoCentavos: BigInt(r.i.abatimentoCentavos) }),
      }, out, { cobrancaId: null, instrucaoId: r.i.id })
    }
  }
  if (!itens.length) return { fora }
  const file = write(itens)
  return { texto: file.texto, registros: file.registros, valorCentavos: file.valorCentavos, carried, fora }
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'latin1').digest('hex')

/**
 * The name the bank gives such a file. Bradesco's manual fixes it: CBDDMMNN.REM, NN the file of the day (here the
 * NSA's last two digits). The other banks' manuals fix none; their files are named alike, with the bank and the NSA.
 */
export function nomeDoArquivo(banco: Banco, dia: string, nsa: number): string {
  const [, mm, dd] = dia.split('-')
  if (banco === '237') return `CB${dd}${mm}${String(nsa % 100).padStart(2, '0')}.REM`
  return `CB${banco}${dd}${mm}${dia.slice(2, 4)}${String(nsa).padStart(6, '0')}.REM`
}

/** The account and the customer as the file's header and segments name them. */
export function contaRemessa(a: CollectionAccount, cliente: { nome: string, documento: string }): ContaRemessa & { layout: '240' | '400' } {
  return {
    banco: a.banco, agencia: a.agencia, ...(a.agenciaDigito ? { agenciaDigito: a.agenciaDigito } : {}), conta: a.conta, contaDigito: a.contaDigito,
    carteira: a.carteira, ...(a.convenio ? { convenio: a.convenio } : {}), inscricao: cliente.documento, empresa: cliente.nome, layout: a.layoutCnab,
  }
}
