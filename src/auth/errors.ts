// What the credential stores refuse, as errors a caller maps to its own answer (a CLI line and exit code, a 4xx).
// Messages name the rule, never a secret.

/** Input that breaks a rule of the model (a name too long, a bad CNPJ, an expiry in the past…). */
export class CredentialInputError extends Error {}

/** Credentials are issued only to a customer with an active subscription. */
export class InactiveCustomerError extends Error {
  constructor() { super('the customer is suspended: reactivate it first') }
}

/** The e-mail already belongs to a person (of this or another customer): login finds people by e-mail alone. */
export class EmailInUseError extends Error {
  constructor() { super('this e-mail already belongs to a user') }
}

/** An invitation that was used, expired, or whose person is no longer waiting for it. */
export class InvitationUnusableError extends Error {
  constructor() { super('the invitation was used or has expired') }
}

/** No customer has this id (or row-level security hides it: it is not the transaction's). */
export class UnknownCustomerError extends Error {
  constructor() { super('no customer has this id') }
}

/** A unique constraint refused the row (`constraint` names which). Drizzle wraps the driver's error as `cause`. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string, constraint?: string, cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint === constraint
  }
  return false
}
