// How a route that takes Idempotency-Key says so in the OpenAPI documents.
import { Type } from 'typebox'
import { Problem } from '../http/schemas.ts'

export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    description: 'draft-ietf-httpapi-idempotency-key-header: 1 to 255 visible ASCII characters, bare or as a quoted string (`"…"`). '
      + 'The same key with the same request answers the first answer (`Idempotent-Replayed: true`) for IDEMPOTENCY_KEY_TTL_HOURS (24 h by default).',
  })),
})

export const idempotencyProblems = {
  400: Problem('The Idempotency-Key header is not a key (`chave_idempotencia_invalida`), or missing where required (`chave_idempotencia_ausente`).',
    'chave_idempotencia_invalida'),
  409: Problem('The first request with this Idempotency-Key has not finished; retry after Retry-After seconds.', 'chave_idempotencia_em_uso'),
}
