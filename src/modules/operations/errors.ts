// What operations refuse, each with its catalogue code and the fields a client needs to act on it.
import { DomainError } from '../../platform/http/domain-error.ts'

/** The resource is not in a state this transition leaves (another request moved it first): `estado` is where it is. */
export class InvalidStateError extends DomainError<'estado_invalido'> {
  constructor(estado: string, more: Record<string, unknown> = {}) {
    super('estado_invalido', `the resource is ${estado}`)
    this.fields = { estado, ...more }
  }
}

/** The quote to accept is not the operation's latest: `cotacao_versao` is. */
export class StaleQuoteError extends DomainError<'cotacao_desatualizada'> {
  constructor(latest: number) {
    super('cotacao_desatualizada', `the latest quote is version ${latest}`)
    this.fields = { cotacao_versao: latest }
  }
}

/** The quote's day has ended (or the operation's date has passed): quote a new operation. */
export class ExpiredQuoteError extends DomainError<'cotacao_expirada'> {
  constructor(validaAte: Date) {
    super('cotacao_expirada', `the quote was valid until ${validaAte.toISOString()}`)
    this.fields = { valida_ate: validaAte.toISOString() }
  }
}

/** An operation is accepted on its date, not before: its price is the price of money delivered that day. */
export class EarlyAcceptanceError extends DomainError<'operacao_antes_da_data'> {
  constructor(dataOperacao: string, hoje: string) {
    super('operacao_antes_da_data', `the operation is priced for ${dataOperacao}: accept it on that day, not on ${hoje}`)
    this.fields = { data_operacao: dataOperacao, hoje }
  }
}

/**
 * The cedente is paid on the operation's date only: money priced (deságio, IOF) for one day is never paid on another.
 * An operation whose day passed unpaid is cancelled (its acquisition reversed) and made again for the new day.
 */
export class PaymentDayError extends DomainError<'pagamento_fora_da_data'> {
  constructor(dataOperacao: string, dataPagamento: string) {
    super('pagamento_fora_da_data', `the operation is priced for ${dataOperacao}; a payment on ${dataPagamento} would pay money priced for another day`)
    this.fields = { data_operacao: dataOperacao, data_pagamento: dataPagamento }
  }
}

/** A transfer is recorded for one payment: `desembolso_id` names the payment this id_transacao is recorded for. */
export class TransactionInUseError extends DomainError<'id_transacao_em_uso'> {
  constructor(desembolsoId: string) {
    super('id_transacao_em_uso', 'this transfer is recorded for another payment')
    this.fields = { desembolso_id: desembolsoId }
  }
}

export type LimitBreach = {
  tipo: 'cedente' | 'sacado', id: string, razao_social: string, limite_centavos: number, exposicao_centavos: number, operacao_centavos: number,
}

/** Accepting would take a cedente's or a sacado's exposure past its limit: each limit, its exposure, what this adds. */
export class LimitExceededError extends DomainError<'limite_excedido'> {
  constructor(limites: LimitBreach[]) {
    super('limite_excedido', `${limites.length} limit(s) would be exceeded`)
    this.fields = { limites }
  }
}

/** The product asks for confirmation with the sacado before acceptance: the títulos neither confirmed nor waived, each with its state. */
export class UnconfirmedTitlesError extends DomainError<'titulos_nao_confirmados'> {
  constructor(titulos: { id: string, numero: string, confirmacao_estado: string }[]) {
    super('titulos_nao_confirmados', `${titulos.length} título(s) not confirmed with the sacado`)
    this.fields = { titulos }
  }
}

/** The product asks for a clean registry query before acceptance: each duplicata whose last query is not `livre`, and why. */
export class RegistryBlockedError extends DomainError<'registro_impedido'> {
  constructor(titulos: { id: string, numero: string, registro_estado: string, registro_situacao: string | null }[]) {
    super('registro_impedido', `${titulos.length} duplicata(s) without a clean registry query`)
    this.fields = { titulos }
  }
}

/**
 * The sacado's register has no e-mail address: a confirmation link (none given) or a boleto (collections) has nowhere to
 * go; the register's PATCH gives it one.
 */
export class NoSacadoEmailError extends DomainError<'sacado_sem_email'> {
  constructor(sacadoId: string) {
    super('sacado_sem_email', 'the sacado has no e-mail address in the register')
    this.fields = { sacado_id: sacadoId }
  }
}

/**
 * The customer's CNPJ is not recorded, and what was asked names the buyer by it: the notice of an assignment to the
 * sacado, a registry request. The operator records it (`npm run cli -- clientes documento <id> --documento <CNPJ>`).
 */
export class NoCustomerCnpjError extends DomainError<'empresa_sem_cnpj'> {
  constructor() {
    super('empresa_sem_cnpj', 'the customer\'s CNPJ is not recorded: the operator records it (clientes documento)')
  }
}

/**
 * A draft's título already confirmed with its sacado or queried at the registry keeps that record: it is not removed
 * from the draft (cancel the operation instead, which keeps both).
 */
export class TitleWithChecksError extends DomainError<'titulo_com_verificacoes'> {
  constructor(tituloId: string) {
    super('titulo_com_verificacoes', 'the título has confirmations or registry requests, which are kept')
    this.fields = { titulo_id: tituloId }
  }
}

/** A blocked cedente or sacado takes part in no new operation. */
export class BlockedRegisterError extends DomainError<'cadastro_bloqueado'> {
  constructor(cadastros: { tipo: 'cedente' | 'sacado', id: string }[]) {
    super('cadastro_bloqueado', 'a register of this operation is blocked')
    this.fields = { cadastros }
  }
}

/** A duplicata (its NF-e key and its number: each installment of an invoice once) is in a live operation already. */
export class DuplicateTitleError extends DomainError<'titulo_duplicado'> {
  constructor(chaveNfe: string, numero: string, tituloId: string | null) {
    super('titulo_duplicado', 'this duplicata (NF-e key and number) is in a live operation already')
    this.fields = { chave_nfe: chaveNfe, numero, titulo_id: tituloId }
  }
}

/** The operation would hold more títulos than OPERACAO_MAX_TITULOS: the limit, what it holds and what was sent. */
export class TooManyTitlesError extends DomainError<'limite_de_titulos'> {
  constructor(limite: number, naOperacao: number, enviados: number) {
    super('limite_de_titulos', `an operation holds at most ${limite} títulos (OPERACAO_MAX_TITULOS)`)
    this.fields = { limite, titulos_na_operacao: naOperacao, titulos_enviados: enviados, configuracao: 'OPERACAO_MAX_TITULOS' }
  }
}

/** The account to pay was added after the cedente's registration and no second person has confirmed it yet. */
export class UnconfirmedAccountError extends DomainError<'conta_bancaria_nao_confirmada'> {
  constructor(contaId: string | null) {
    super('conta_bancaria_nao_confirmada', 'the bank account is not confirmed by a second person')
    this.fields = { conta_id: contaId }
  }
}

/** The payment's approver must be a person other than the one who asked for it. */
export class SameApproverError extends DomainError<'aprovacao_pelo_mesmo_usuario'> {
  constructor(why: string) {
    super('aprovacao_pelo_mesmo_usuario', why)
  }
}

/** The borderô prices to nothing a cedente would sign: a título's price or the net amount is not positive. */
export class UnviableQuoteError extends DomainError<'cotacao_inviavel'> {
  constructor(motivo: string, indice?: number) {
    super('cotacao_inviavel', `the quote is not viable: ${motivo}`)
    this.fields = { motivo, ...(indice !== undefined ? { indice } : {}) }
  }
}
