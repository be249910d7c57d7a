// The one factory of error answers: problem(code) builds an HttpProblem from the catalogue, to throw (the
// error handler answers it) or to send at once with sendProblem (hot paths that should not throw). Every
// error body is JSON with a stable `detail` code; clients read the code, not prose.
import type { FastifyReply } from 'fastify'
import { AnswerError } from './answer-error.ts'
import { PER_ANSWER, PROBLEMS, type CatalogueEntry, type DetailCode } from './problem-catalogue.ts'

export type { DetailCode }
type Entry<C extends DetailCode> = (typeof PROBLEMS)[C]
type HeadersOf<C extends DetailCode> = Entry<C> extends { headers: infer H } ? H : Record<never, never>

/** The headers whose value each answer of `C` must give (Allow, Retry-After…). */
export type GivenHeaders<C extends DetailCode> = {
  [K in keyof HeadersOf<C> as HeadersOf<C>[K] extends typeof PER_ANSWER ? K : never]: string
}

/** The catalogue as the factory reads it at run time (the literal types above are for the compiler). */
const ENTRIES: Readonly<Record<DetailCode, CatalogueEntry>> = PROBLEMS

/** Each code's headers of fixed value (WWW-Authenticate…), computed once. */
const FIXED_HEADERS = Object.fromEntries(Object.entries(ENTRIES).map(([code, entry]) => [
  code, Object.fromEntries(Object.entries(entry.headers ?? {}).filter(([, value]) => typeof value === 'string')),
])) as Record<DetailCode, Record<string, string>>

/** What an error answer is made of; HttpProblem and RequestValidationError both are one. */
export type ProblemAnswer = {
  readonly statusCode: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: { readonly detail: unknown }
}

/** An error answered with the catalogue's status, its fixed headers and these, and `{"detail": code}`. */
export class HttpProblem<C extends DetailCode = DetailCode> extends AnswerError implements ProblemAnswer {
  readonly statusCode: Entry<C>['status']
  readonly headers: Readonly<Record<string, string>>
  readonly body: { readonly detail: C } & Readonly<Record<string, unknown>>

  /**
   * Built by problem(code), which checks the headers the catalogue leaves to each answer; `fields`, a domain
   * refusal's own body fields (refusalOf), come after `detail` and the catalogue's fixed ones, never over `detail`.
   */
  readonly detail: C
  constructor(detail: C, headers: Readonly<Record<string, string>> = {}, fields: Readonly<Record<string, unknown>> = {}) {
    super(detail)
    this.detail = detail
    this.statusCode = PROBLEMS[detail].status
    this.headers = { ...FIXED_HEADERS[detail], ...headers }
    const { detail: _never, ...own } = fields
    this.body = { detail, ...ENTRIES[detail].extra, ...own }
  }
}

/** The answer for `code`, with the values of the headers the catalogue leaves to each answer. */
export function problem<C extends DetailCode>(code: C, ...given: keyof GivenHeaders<C> extends never ? [] : [GivenHeaders<C>]): HttpProblem<C> {
  return new HttpProblem<C>(code, given[0])
}

/** Answers `answer` now, without throwing: status, headers, then the JSON body. */
export function sendProblem(reply: FastifyReply, answer: ProblemAnswer): FastifyReply {
  return reply.code(answer.statusCode).headers(answer.headers).send(answer.body)
}
