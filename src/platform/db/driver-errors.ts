// The driver's errors a caller tells apart by SQLSTATE: a unique constraint (a name or an e-mail taken) and a
// CHECK (a value the stores' own checks should have refused).
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

/** The CHECK named `constraint` refused the row (or a trigger raised it in its name). */
export function isCheckViolationOf(err: unknown, constraint: string): boolean {
  return driverError(err, '23514')?.constraint === constraint
}

/** A CHECK constraint refused the row: input the store's own checks should have caught, still the caller's input. */
export function isCheckViolation(err: unknown): boolean {
  return driverError(err, '23514') !== undefined
}
