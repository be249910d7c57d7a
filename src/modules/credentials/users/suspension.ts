// Suspending one person of a customer (and reactivating them). A suspended person's sessions end at once (each
// audited), and the credential guard refuses the tokens they made from then on (`usuario_inativo`, the same check
// as a suspended customer's), so nothing of theirs keeps working while the row says `suspenso`. Those tokens are
// revoked for good only when asked (`revokeTokens`: a person who leaves); otherwise a reactivation brings them
// back with the person, as a customer's reactivation brings back its credentials.
import { and, eq, isNull } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { tokens, usuarios } from '../../../platform/db/schema.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { CredentialInputError, UnknownUserError } from '../errors.ts'
import { endUserSessions } from '../sessions/store.ts'
import { revokeToken } from '../tokens/store.ts'
import { getUser, type User } from './store.ts'

export type UserRef = { clienteId: string, usuarioId: string }
export type Suspension = { user: User, changed: boolean, sessionsEnded: number, tokensRevoked: number }

/** Suspends an active person (an invited one has no access to take away: CredentialInputError). Idempotent. */
export async function suspendUser(tx: Orm, ref: UserRef, ctx: ActionContext, opts: { revokeTokens?: boolean } = {}): Promise<Suspension> {
  const before = await personOf(tx, ref)
  if (before.estado === 'convidado') {
    throw new CredentialInputError('the person has not activated yet: there is no access to suspend (the invitation expires by itself)')
  }
  const changed = before.estado === 'ativo' && await setState(tx, ref, 'ativo', 'suspenso')
  if (changed) await appendAudit(tx, ref.clienteId, ctx, 'usuario.suspenso', { alvoId: ref.usuarioId })
  // Ended and revoked even when the person was suspended already: a second call finishes what a first left.
  const sessionsEnded = await endUserSessions(tx, ref, ctx)
  let tokensRevoked = 0
  if (opts.revokeTokens) {
    const live = await tx.select({ id: tokens.id }).from(tokens)
      .where(and(eq(tokens.clienteId, ref.clienteId), eq(tokens.usuarioId, ref.usuarioId), isNull(tokens.revogadoEm)))
    for (const t of live) if (await revokeToken(tx, { clienteId: ref.clienteId, tokenId: t.id }, ctx) === 'revoked') tokensRevoked++
  }
  return { user: (await getUser(tx, ref.usuarioId))!, changed, sessionsEnded, tokensRevoked }
}

/** Gives a suspended person their access back (their password, and their tokens not revoked meanwhile). Idempotent. */
export async function reactivateUser(tx: Orm, ref: UserRef, ctx: ActionContext): Promise<{ user: User, changed: boolean }> {
  const before = await personOf(tx, ref)
  const changed = before.estado === 'suspenso' && await setState(tx, ref, 'suspenso', 'ativo')
  if (changed) await appendAudit(tx, ref.clienteId, ctx, 'usuario.reativado', { alvoId: ref.usuarioId })
  return { user: (await getUser(tx, ref.usuarioId))!, changed }
}

async function personOf(tx: Orm, ref: UserRef): Promise<User> {
  const user = await getUser(tx, ref.usuarioId)
  if (!user || user.clienteId !== ref.clienteId) throw new UnknownUserError()
  return user
}

async function setState(tx: Orm, ref: UserRef, from: 'ativo' | 'suspenso', to: 'ativo' | 'suspenso'): Promise<boolean> {
  const rows = await tx.update(usuarios).set({ estado: to })
    .where(and(eq(usuarios.clienteId, ref.clienteId), eq(usuarios.id, ref.usuarioId), eq(usuarios.estado, from))).returning({ id: usuarios.id })
  return rows.length > 0
}
