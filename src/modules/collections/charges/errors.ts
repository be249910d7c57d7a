// What a charge refuses, each with its catalogue code and, where another row holds what was asked, that row's id.
import { DomainError } from '../../../platform/http/domain-error.ts'

/** The título is not the customer's acquired asset with an open balance (ofertado, liquidado, cancelado…, or saldo 0). */
export class TitleNotAcquiredError extends DomainError<'titulo_nao_adquirido'> {
  constructor(estado: string) {
    super('titulo_nao_adquirido', `only an acquired título with an open balance is charged (this one is ${estado})`)
    this.fields = { estado }
  }
}

/** The título has a live charge already (to be registered, or registered): the sacado would be asked to pay twice. */
export class TitleChargedError extends DomainError<'titulo_ja_cobrado'> {
  constructor(id: string) {
    super('titulo_ja_cobrado', 'the título has a live charge already')
    this.fields = { id }
  }
}

/** The collection account waits for a second person's confirmation: where the sacados' money goes is not agreed yet. */
export class AccountUnconfirmedError extends DomainError<'conta_cobranca_nao_confirmada'> {
  constructor() {
    super('conta_cobranca_nao_confirmada', 'the collection account is not confirmed by a second person yet')
  }
}

/** The collection account was made inactive: no new charge goes under it. */
export class AccountInactiveError extends DomainError<'conta_cobranca_inativa'> {
  constructor() {
    super('conta_cobranca_inativa', 'the collection account is inactive')
  }
}

/** The nosso número was given to another charge under this account already (whatever became of it). */
export class NossoNumeroInUseError extends DomainError<'nosso_numero_em_uso'> {
  constructor(id: string) {
    super('nosso_numero_em_uso', 'the nosso número was given to another charge under this account already')
    this.fields = { id }
  }
}

/**
 * The account's nosso número sequence reached its bank's digits (red team of issue 33: a sequence raised to its
 * last number made every later charge fail with no field named): a charge gives its own `nosso_numero`, or another
 * account is added.
 */
export class NossoNumeroExhaustedError extends DomainError<'nosso_numero_esgotado'> {
  constructor(contaCobrancaId: string) {
    super('nosso_numero_esgotado', 'the account\'s nosso número sequence has reached its bank\'s digits')
    this.fields = { conta_cobranca_id: contaCobrancaId }
  }
}

/**
 * The charge's boleto was e-mailed less than an hour ago (red team of issue 33: thirty identical e-mails in seconds
 * reached the sacado): the same notice is not sent again until `proximo_envio_em`.
 */
export class BoletoSentRecentlyError extends DomainError<'boleto_enviado_recentemente'> {
  constructor(enviadoEm: Date, proximoEnvioEm: Date) {
    super('boleto_enviado_recentemente', 'the boleto was e-mailed to the sacado less than an hour ago')
    this.fields = { enviado_em: enviadoEm.toISOString(), proximo_envio_em: proximoEnvioEm.toISOString() }
  }
}
