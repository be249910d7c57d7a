// What the credential stores refuse, each with its code of the error catalogue: every surface answers it from
// that code (src/platform/http/refusal.ts), a CLI line and exit code, a page, a 4xx. Messages name the rule, never a secret.
import { DomainError } from '../../platform/http/domain-error.ts'

/** Input that breaks a rule of the model (a name too long, a bad CNPJ, an expiry in the past…). */
export class CredentialInputError extends DomainError<'entrada_recusada'> {
  constructor(message: string) { super('entrada_recusada', message) }
}

/** Credentials are issued only to a customer with an active subscription. */
export class InactiveCustomerError extends DomainError<'assinatura_inativa'> {
  constructor() { super('assinatura_inativa', 'the customer is suspended: reactivate it first') }
}

/** The e-mail already belongs to a person (of this or another customer): login finds people by e-mail alone. */
export class EmailInUseError extends DomainError<'email_em_uso'> {
  constructor() { super('email_em_uso', 'this e-mail already belongs to a user') }
}

/** An invitation that was used, expired, or whose person is no longer waiting for it. */
export class InvitationUnusableError extends DomainError<'convite_inutilizavel'> {
  constructor() { super('convite_inutilizavel', 'the invitation was used or has expired') }
}

/** No person of this customer has this id (another customer's is hidden by row-level security). */
export class UnknownUserError extends DomainError<'nao_encontrado'> {
  constructor() { super('nao_encontrado', 'no person of this customer has this id') }
}

/** No customer has this id (or row-level security hides it: it is not the transaction's). */
export class UnknownCustomerError extends DomainError<'nao_encontrado'> {
  constructor() { super('nao_encontrado', 'no customer has this id') }
}

/** The person's role does not reach what was asked (a scope in a token, a change of people). */
export class RoleError extends DomainError<'papel_insuficiente'> {
  constructor(message: string) { super('papel_insuficiente', message) }
}

/** A change that would leave the customer with no active administrador. */
export class LastAdministratorError extends DomainError<'ultimo_administrador'> {
  constructor() { super('ultimo_administrador', 'the customer would have no active administrador: make another one first') }
}
