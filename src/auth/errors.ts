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

/** No person of this customer has this id (another customer's is hidden by row-level security). */
export class UnknownUserError extends Error {
  constructor() { super('no person of this customer has this id') }
}

/** No customer has this id (or row-level security hides it: it is not the transaction's). */
export class UnknownCustomerError extends Error {
  constructor() { super('no customer has this id') }
}

type DriverError = { code?: string, constraint?: string, cause?: unknown }

/** The driver's error of SQLSTATE `code` in `err` or its causes (Drizzle wraps the driver's error as `cause`). */
function driverError(err: unknown, code: string): DriverError | undefined {
  for (let e = err as DriverError | undefined; e; e = e.cause as DriverError | undefined) {
    if (e.code === code) return e
  }
  return undefined
}

/** A unique constraint refused the row (`constraint` names which). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  return driverError(err, '23505')?.constraint === constraint
}

/** A CHECK constraint refused the row: input the store's own checks should have caught, still the caller's input. */
export function isCheckViolation(err: unknown): boolean {
  return driverError(err, '23514') !== undefined
}
