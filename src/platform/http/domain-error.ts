// The base of the refusals the domain raises (a rule of the model broken, a state that forbids the change): each
// carries its code of the error catalogue (src/platform/http/problem-catalogue.ts), so every surface answers it from that
// code (refusalOf in src/platform/http/refusal.ts) instead of each caller mapping classes to answers of its own. The
// message is for an operator (the CLI prints it, English like every store's); it never holds a secret.
import type { DetailCode } from './problem-catalogue.ts'
import type { GivenHeaders } from './problem.ts'

export class DomainError<C extends DetailCode = DetailCode> extends Error {
  /** The values of the headers the catalogue leaves to each answer of `code` (a 503's Retry-After). */
  readonly given: Readonly<Record<string, string>>
  /**
   * Fields of this answer's body besides `detail`, named in the catalogue's entry (`fields`): what a client needs
   * to act on the refusal (the id that already holds an `id_externo`, the `estado` a transition found).
   */
  fields: Readonly<Record<string, unknown>> = {}

  readonly code: C
  constructor(code: C, message: string, ...given: keyof GivenHeaders<C> extends never ? [] : [GivenHeaders<C>]) {
    super(message)
    this.code = code
    this.given = given[0] ?? {}
  }
}
