// Schema pieces every product route of the customers' API repeats (produto.md §1): money, days, pages, the
// refusals of the credential guard for a scope, and the bodies of a 404 and a 409.
import { Type } from 'typebox'
import { writtenTextPattern } from '../lib/chosen-name.ts'
import { Problem } from './schemas.ts'

/** An integer number of centavos, 0 to 2^53 − 1: a fraction, a string or a float is a 422. */
export const Centavos = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })

export const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD, a calendar day in America/Sao_Paulo.' })

/** A reason a person writes for others to read (a refusal, a failure, a cancellation): 3 to 500 characters, text only. */
export const MotivoIn = Type.Object({ motivo: Type.String({ minLength: 3, maxLength: 500, pattern: writtenTextPattern(3) }) }, { additionalProperties: false })

/** `limite` (1–200) and `antes` (the previous page's `proximo`), as every list takes them. */
export const PageQuery = {
  limite: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]?|1[0-9]{2}|200)$', description: '1–200, default 50.' })),
  antes: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The previous page\'s `proximo`.' })),
}

export const pageOf = (q: { limite?: string, antes?: string }) => ({ limit: Number(q.limite ?? 50), ...(q.antes ? { before: Number(q.antes) } : {}) })

/** The answers the credential guard may give a route that needs `escopo`. */
export const guardRefusals = (escopo: string) => ({
  401: Problem('No credential, or one refused (see WWW-Authenticate).', 'nao_autenticado'),
  403: Problem(`The credential lacks the scope ${escopo} (escopo_insuficiente), the person's role does not reach this (papel_insuficiente), `
    + 'the subscription is suspended (assinatura_inativa), or a session\'s change lacks its X-CSRF-Token (csrf_invalido).', 'escopo_insuficiente'),
  429: Problem('Over the per-IP or the per-credential rate limit; see Retry-After (seconds).', 'limite_de_requisicoes'),
})

export const NotFound = (what: string) => ({ 404: Problem(`No ${what} of the customer's has this id.`, 'nao_encontrado') })

/** A 409: its code and the fields that let a client act on it (the `estado` found, the `id` that holds a value, the limits). */
export const Conflict = (description: string) => ({
  409: Type.Object({ detail: Type.String() }, { description, additionalProperties: true }),
})

/**
 * A page from `limit + 1` rows read newest first: the first `limit`, and the cursor of the next page (the last
 * one's `seq`) when the extra row shows there is one.
 */
export function pageFrom<T extends { seq: number }>(rows: T[], limit: number): { items: T[], next: number | null }
export function pageFrom<T>(rows: T[], limit: number, key: (row: T) => number): { items: T[], next: number | null }
export function pageFrom<T>(rows: T[], limit: number, key = (row: T) => (row as { seq: number }).seq): { items: T[], next: number | null } {
  const items = rows.slice(0, limit)
  return { items, next: rows.length > limit ? key(items.at(-1)!) : null }
}
