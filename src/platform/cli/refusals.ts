// How the CLI says a domain refusal (refusalOf, the mapping from error to code every surface shares): the
// operator's own input is a usage error (exit 2, and where the usage is), a state to change first (a suspended
// customer, an unknown person) a one-line failure (exit 1). The line is the refusal's message, for an operator.
import type { DetailCode } from '../http/problem-catalogue.ts'
import { refusalOf } from '../http/refusal.ts'
import { UsageError } from './output.ts'

/** The codes that mean the operator typed something the model refuses. */
const OPERATOR_INPUT: ReadonlySet<DetailCode> = new Set(['entrada_recusada', 'email_em_uso'])

export type CliFailure = { exitCode: 1 | 2, message: string }

/** What the CLI prints and exits with for `err`, when it is a refusal or a usage error; undefined for anything else. */
export function cliFailure(err: unknown): CliFailure | undefined {
  if (err instanceof UsageError) return { exitCode: 2, message: err.message }
  const refused = refusalOf(err)
  return refused && { exitCode: OPERATOR_INPUT.has(refused.code) ? 2 : 1, message: refused.message }
}
