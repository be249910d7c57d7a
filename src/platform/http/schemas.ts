// Schemas shared by several routes: the 422 body and the {"detail": code} error body.
import { Type } from 'typebox'
import type { DetailCode } from './problem.ts'
import { ref } from './schema-ref.ts'

// Property order is FastAPI's body order (type, loc, msg, input, ctx): the serializer follows it.
export const ValidationError = Type.Object({
  type: Type.String(),
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  input: Type.Optional(Type.Unknown()),
  ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { $id: 'ValidationError', title: 'ValidationError' })

export const HTTPValidationError = Type.Object({
  detail: Type.Optional(Type.Array(ref(ValidationError))),
}, { $id: 'HTTPValidationError', title: 'HTTPValidationError' })

/** Inline (not a named component): the contract names exactly eight schemas. `example`: a code of the catalogue. */
export const Problem = (description: string, example: DetailCode) => Type.Object({
  detail: Type.String({ description: 'Stable error code; clients branch on it, not on prose.', examples: [example] }),
}, { description })

export const rateLimited = { 429: Problem('Over the per-IP rate limit; see the Retry-After header (seconds).', 'limite_de_requisicoes') }

/**
 * A 422 of the customers' document, inline (the named HTTPValidationError belongs to the public document, whose
 * components are exactly the contract's): `detail` lists every item, FastAPI's shape; or it is a refusal of the
 * catalogue with the fields that let a client act on it: `entrada_recusada` (a value the database's own rules
 * refuse) on any route, and the route's `codes` (a quote not viable names the reason and the line). The answer is
 * serialized by this schema, so a code in a list-only 422 would fail to serialize (a 500).
 */
export const ValidationProblem = (description: string, codes: readonly DetailCode[] = []) => Type.Union([
  Type.Object({ detail: Type.Array(Type.Object({
    type: Type.String(), loc: Type.Array(Type.Union([Type.String(), Type.Integer()])), msg: Type.String(), input: Type.Optional(Type.Unknown()),
    ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
  })) }),
  Type.Object({ detail: Type.String({ description: `Stable error code: ${[...codes, 'entrada_recusada'].join(', ')}.` }) }, { additionalProperties: true }),
], { description })
