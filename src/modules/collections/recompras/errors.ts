// What a buy-back refuses, each with its catalogue code.
import { DomainError } from '../../../platform/http/domain-error.ts'

/**
 * A buy-back for the sacado's default of títulos whose product carries no coobrigação: in plain factoring the cedente
 * answers for the título's existence, not for the sacado's payment, and the courts hold such a buy-back void (STJ,
 * REsp 1.711.412/MG). `titulo_ids` names the títulos without it.
 */
export class BuyBackWithoutRecourseError extends DomainError<'recompra_sem_coobrigacao'> {
  constructor(tituloIds: string[]) {
    super('recompra_sem_coobrigacao', 'a buy-back for default needs the cedente\'s coobrigação, which these títulos\' products do not carry')
    this.fields = { titulo_ids: tituloIds }
  }
}

/** The buy-back is not in a state that takes this (paid already, compensated, or to be compensated rather than paid). */
export class BuyBackStateError extends DomainError<'estado_invalido'> {
  constructor(estado: string) {
    super('estado_invalido', `the buy-back is ${estado}`)
    this.fields = { estado }
  }
}

/** The transfer is recorded for another of the customer's buy-backs (`recompra_id` names it). */
export class BuyBackTransactionInUseError extends DomainError<'id_transacao_em_uso'> {
  constructor(recompraId: string) {
    super('id_transacao_em_uso', 'this transfer is recorded for another buy-back')
    this.fields = { recompra_id: recompraId }
  }
}
