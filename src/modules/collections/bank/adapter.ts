// The bank as the collections module sees it (issue 33: "a bank adapter interface (register, instruct, read back,
// with the bank's answer kept)"). Two transports implement it: the HTTP API of a bank (http-adapter.ts, spoken here
// to the sandbox bank; a real bank's client implements this interface against its own API and is chosen by the
// account's bank), and the CNAB files (remessa240.ts out, retorno240.ts in), whose answers come back in a retorno.
//
// What a real bank's client must do to implement it:
// - `registrar`: register the boleto with the nosso número given (the service numbers its charges: the bank must not
//   renumber them) and create the charge's PIX Cobrança com vencimento (`cobv`), answering its location and BR Code.
//   Registering the same nosso número again answers the first registration (the service retries after a timeout).
// - `instruir`: send an instruction after registration (new due date, abatimento, baixa, protest, withdrawal), named
//   by the service's id for it: the same id again answers the first (a retry after a lost answer must not be taken
//   for a second baixa, and refused as one).
// - `consultar`: the charge as the bank holds it, paid or not (what the service reads when an answer was lost).
// - Every answer keeps the bank's own body (`resposta`), which the service stores beside the charge.
// - A failure that may pass (timeout, 5xx, connection refused) is `indisponivel`: the service tries again later with
//   the same request; a refusal is final and names the bank's reason.
import type { Banco } from '../boleto/bancos.ts'
import type { Instrucao } from '../cnab/remessa240.ts'

export interface ContaNoBanco { banco: Banco, agencia: string, conta: string, contaDigito: string, carteira: string, convenio?: string, chavePix?: string }

export interface PedidoDeRegistro {
  conta: ContaNoBanco
  nossoNumero: string
  seuNumero: string
  vencimento: string
  valorCentavos: bigint
  pagador: { documento: string, nome: string }
  beneficiario: { documento: string, nome: string, cidade: string }
  /** Juros a day in centavos, the fine as a fraction ("0.02"), a discount until a day. */
  jurosDiaCentavos?: bigint
  multa?: string
  desconto?: { centavos: bigint, ate: string }
}

export type Falha = { ok: false, tipo: 'indisponivel', motivo: string } | { ok: false, tipo: 'recusada', codigo: string, motivo: string, resposta: unknown }

export type Registro = { ok: true, pix: { txid: string, location: string, copiaECola: string }, resposta: unknown } | Falha

export interface PedidoDeInstrucao {
  /** The service's id for the instruction: the bank answers a repeat with its first answer. */
  id: string
  conta: ContaNoBanco, nossoNumero: string, instrucao: Instrucao, vencimento?: string, abatimentoCentavos?: bigint
}

export type Resultado = { ok: true, resposta: unknown } | Falha

export type SituacaoNoBanco = { ok: true, situacao: 'registrada' | 'liquidada' | 'baixada', pagoCentavos?: bigint, pagoEm?: string, resposta: unknown } | Falha

export interface BankAdapter {
  registrar(p: PedidoDeRegistro): Promise<Registro>
  instruir(p: PedidoDeInstrucao): Promise<Resultado>
  consultar(p: { conta: ContaNoBanco, nossoNumero: string }): Promise<SituacaoNoBanco>
}
