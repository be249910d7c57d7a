// The names of a customer's people and tokens, for answers that would otherwise say only an id: who asked for a
// payment, who added its account, who refused it. Read in the caller's tenant transaction (row-level security keeps
// another customer's people out, whatever ids are asked).
import { and, eq, inArray } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import { tokens, usuarios } from '../db/schema.ts'

/** Each id's name, people's and tokens' in one map (ids are UUIDs: a person's never equals a token's). */
export async function namesOf(tx: Orm, clienteId: string, ids: { usuarios?: Iterable<string | null>, tokens?: Iterable<string | null> }):
Promise<Map<string, string>> {
  const wanted = (list: Iterable<string | null> | undefined) => [...new Set([...(list ?? [])].filter((x): x is string => x !== null))]
  const people = wanted(ids.usuarios)
  const tokenIds = wanted(ids.tokens)
  const found = [
    ...(people.length ? await tx.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios)
      .where(and(eq(usuarios.clienteId, clienteId), inArray(usuarios.id, people))) : []),
    ...(tokenIds.length ? await tx.select({ id: tokens.id, nome: tokens.nome }).from(tokens)
      .where(and(eq(tokens.clienteId, clienteId), inArray(tokens.id, tokenIds))) : []),
  ]
  return new Map(found.map((r) => [r.id, r.nome]))
}
