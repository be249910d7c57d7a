// What the collection accounts refuse, each with its catalogue code and, for a duplicate, the id that holds the account.
import { DomainError } from '../../../platform/http/domain-error.ts'

/** The customer has this account already (the same bank, agência, conta and carteira). */
export class CollectionAccountExistsError extends DomainError<'conta_cobranca_existente'> {
  constructor(id: string) {
    super('conta_cobranca_existente', 'the customer has this collection account already (bank, agency, account and carteira)')
    this.fields = { id }
  }
}

/**
 * The bank account is another customer's collection account (migration 0046): a bank account is one beneficiary's,
 * and the bank finds its boletos by it. Whose is not said.
 */
export class CollectionAccountOfAnotherError extends DomainError<'conta_cobranca_de_outro_cliente'> {
  constructor() {
    super('conta_cobranca_de_outro_cliente', 'this bank account (bank, agency and account) is another customer\'s collection account')
  }
}

/** A collection account is added by a person, and confirmed by another person (never by a token with no person). */
export class CollectionAccountConfirmerError extends DomainError<'aprovacao_pelo_mesmo_usuario'> {
  constructor(why: string) {
    super('aprovacao_pelo_mesmo_usuario', why)
  }
}
