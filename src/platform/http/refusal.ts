// The one mapping from an error to its catalogue code: a domain refusal (src/platform/http/domain-error.ts) by the code it
// carries, and a CHECK constraint's refusal as the caller's input (the database holds the model's rules too).
// Every surface renders the refusal from here: the HTTP answer (problemOf, errors.ts), the MCP tool error
// (src/modules/mcp/server.ts), the CLI's line and exit code (src/cli/commands.ts) and the web app's pages.
import { isCheckViolation } from '../db/driver-errors.ts'
import { DomainError } from './domain-error.ts'
import type { DetailCode } from './problem-catalogue.ts'
import { HttpProblem } from './problem.ts'

export type Refusal = {
  code: DetailCode
  /** For an operator (the CLI's line); never sent to a client, which reads the code. */
  message: string
  /** The HTTP answer: the catalogue's status and headers, the code as `detail`. */
  answer: HttpProblem
}

const CHECK_MESSAGE = 'the database refused a value that breaks a rule of the model'

/** The refusal `err` is, or undefined for any other error (a fault, a database away: each surface's own answer). */
export function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof DomainError) return { code: err.code, message: err.message, answer: new HttpProblem(err.code, err.given, err.fields) }
  if (isCheckViolation(err)) return { code: 'entrada_recusada', message: CHECK_MESSAGE, answer: new HttpProblem('entrada_recusada') }
  return undefined
}
