// What an instruction refuses, each with its catalogue code and what lets the caller act on it.
import { DomainError } from '../../../platform/http/domain-error.ts'

/** Instructions go to a charge the bank holds: one waiting for registration, refused, paid or written off has none. */
export class ChargeNotRegisteredError extends DomainError<'cobranca_nao_registrada'> {
  constructor(estado: string) {
    super('cobranca_nao_registrada', `only a registered charge takes instructions (this one is ${estado})`)
    this.fields = { estado }
  }
}

/**
 * A prorrogação waits for the bank's answer (red team of issue 33): its IOF complementar was priced against the due
 * date as it was, so a second one is asked once the first is confirmed or refused, against the date the bank holds.
 */
export class ExtensionPendingError extends DomainError<'prorrogacao_pendente'> {
  constructor(id: string) {
    super('prorrogacao_pendente', 'a change of this charge\'s due date waits for the bank\'s answer')
    this.fields = { id }
  }
}

/** A baixa was asked already (and not refused): the bank takes nothing more for the boleto. */
export class WriteOffAskedError extends DomainError<'baixa_ja_pedida'> {
  constructor(id: string) {
    super('baixa_ja_pedida', 'a baixa of this charge was asked already')
    this.fields = { id }
  }
}

/** A protest is withdrawn only where one was asked (on the charge, or by a `protestar` not refused). */
export class NoProtestError extends DomainError<'protesto_nao_pedido'> {
  constructor() {
    super('protesto_nao_pedido', 'no protest was asked for this charge')
  }
}
