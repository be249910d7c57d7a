// Web sessions (`sessoes`): the web app's cookie holds the secret, the database its SHA-256. A session ends when
// it is ended (logout, "sair de todos os dispositivos"), when it is left idle past its idle expiry, or at its
// absolute expiry, whichever comes first; each use pushes the idle expiry forward, never past the absolute one.
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { dateOrNull, queryRows } from '../../../platform/db/database.ts'
import { sessoes } from '../../../platform/db/schema.ts'
import { newToken, tokenHash, tokenKind } from '../token-format.ts'
import { appendAudit, type ActionContext } from '../../../platform/tenancy/audit/store.ts'
import type { CustomerState } from '../customers/store.ts'
import type { UserState } from '../users/store.ts'
import type { Papel } from '../roles.ts'

export type SessionLimits = { idleMs: number, absoluteMs: number }

/** Thirty minutes idle, twelve hours at most: a working day, and a walk away from the desk. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 }

export type SessionInfo = {
  id: string, clienteId: string, usuarioId: string, criadaEm: Date, ultimoAcessoEm: Date, expiraOciosaEm: Date, expiraEm: Date, encerradaEm: Date | null,
}

const COLUMNS = {
  id: sessoes.id, clienteId: sessoes.clienteId, usuarioId: sessoes.usuarioId, criadaEm: sessoes.criadaEm, ultimoAcessoEm: sessoes.ultimoAcessoEm,
  expiraOciosaEm: sessoes.expiraOciosaEm, expiraEm: sessoes.expiraEm, encerradaEm: sessoes.encerradaEm,
}

type SessionRef = { clienteId: string, sessaoId: string }

/** A new session for a person who just proved who they are; `token` is the cookie's value, returned once. */
export async function createSession(
  tx: Orm, who: { clienteId: string, usuarioId: string }, ctx: ActionContext, limits: SessionLimits = DEFAULT_SESSION_LIMITS,
): Promise<{ token: string, session: SessionInfo }> {
  const token = newToken('sessao')
  const now = ctx.now.getTime()
  const expiraEm = new Date(now + limits.absoluteMs)
  const expiraOciosaEm = new Date(Math.min(now + limits.idleMs, expiraEm.getTime()))
  const [session] = await tx.insert(sessoes).values({
    clienteId: who.clienteId, usuarioId: who.usuarioId, hash: tokenHash(token), criadaEm: ctx.now, ultimoAcessoEm: ctx.now, expiraOciosaEm, expiraEm,
  }).returning(COLUMNS)
  await appendAudit(tx, who.clienteId, ctx, 'sessao.criada', { alvoId: session!.id })
  return { token, session: session! }
}

export type FoundSession = {
  id: string, clienteId: string, usuarioId: string, expiraOciosaEm: Date, expiraEm: Date, encerradaEm: Date | null,
  clienteEstado: CustomerState, usuarioEstado: UserState, usuarioPapel: Papel,
  /** The access last recorded (touchSession): whether a request's access is worth a write. */
  ultimoAcessoEm: Date,
}

/** The session of a cookie, before its customer is known; undefined for a malformed or unknown value. */
export async function findSession(orm: Orm, token: string): Promise<FoundSession | undefined> {
  if (tokenKind(token) !== 'sessao') return undefined
  const [row] = await queryRows<{
    id: string, cliente_id: string, usuario_id: string, expira_ociosa_em: Date | string, expira_em: Date | string, encerrada_em: Date | string | null,
    cliente_estado: CustomerState, usuario_estado: UserState, usuario_papel: Papel, ultimo_acesso_em: Date | string,
  }>(orm, sql`SELECT * FROM autentica_sessao(${tokenHash(token)})`)
  return row && {
    id: row.id, clienteId: row.cliente_id, usuarioId: row.usuario_id, expiraOciosaEm: new Date(row.expira_ociosa_em), expiraEm: new Date(row.expira_em),
    encerradaEm: dateOrNull(row.encerrada_em), clienteEstado: row.cliente_estado, usuarioEstado: row.usuario_estado, usuarioPapel: row.usuario_papel,
    ultimoAcessoEm: new Date(row.ultimo_acesso_em),
  }
}

/** Why a found session may not be used now, or undefined when it may. */
export function sessionRefusal(s: FoundSession, now: Date): 'encerrada' | 'expirada' | 'usuario_inativo' | 'cliente_suspenso' | undefined {
  if (s.encerradaEm !== null) return 'encerrada'
  if (s.expiraOciosaEm.getTime() <= now.getTime() || s.expiraEm.getTime() <= now.getTime()) return 'expirada'
  if (s.usuarioEstado !== 'ativo') return 'usuario_inativo'
  if (s.clienteEstado !== 'ativo') return 'cliente_suspenso'
  return undefined
}

/** An access within this long after the last recorded one is not written again (the idle expiry moves by the minute). */
export const ACCESS_PRECISION_MS = 60_000

/** Whether this access must be written (touchSession): more than ACCESS_PRECISION_MS after the last recorded one. */
export const sessionAccessIsNews = (s: Pick<FoundSession, 'ultimoAcessoEm'>, now: Date): boolean =>
  now.getTime() - s.ultimoAcessoEm.getTime() >= ACCESS_PRECISION_MS

/** Marks a use: last access now, idle expiry pushed forward. False when the session was no longer live. */
export async function touchSession(tx: Orm, ref: SessionRef, now: Date, limits: SessionLimits = DEFAULT_SESSION_LIMITS): Promise<boolean> {
  const idle = new Date(now.getTime() + limits.idleMs)
  const [row] = await tx.update(sessoes).set({ ultimoAcessoEm: now, expiraOciosaEm: sql`least(${idle}::timestamptz, ${sessoes.expiraEm})` })
    .where(and(eq(sessoes.clienteId, ref.clienteId), eq(sessoes.id, ref.sessaoId), live(now))).returning({ id: sessoes.id })
  return row !== undefined
}

/** Ends one session (logout); false when it had ended already or is not this customer's. */
export async function endSession(tx: Orm, ref: SessionRef, ctx: ActionContext): Promise<boolean> {
  const [row] = await tx.update(sessoes).set({ encerradaEm: ctx.now })
    .where(and(eq(sessoes.clienteId, ref.clienteId), eq(sessoes.id, ref.sessaoId), isNull(sessoes.encerradaEm))).returning({ id: sessoes.id })
  if (row) await appendAudit(tx, ref.clienteId, ctx, 'sessao.encerrada', { alvoId: ref.sessaoId })
  return row !== undefined
}

/** "Sair de todos os dispositivos": ends every open session of the person, each audited; how many it ended. */
export async function endUserSessions(tx: Orm, who: { clienteId: string, usuarioId: string }, ctx: ActionContext): Promise<number> {
  const ended = await tx.update(sessoes).set({ encerradaEm: ctx.now })
    .where(and(eq(sessoes.clienteId, who.clienteId), eq(sessoes.usuarioId, who.usuarioId), isNull(sessoes.encerradaEm))).returning({ id: sessoes.id })
  for (const s of ended) await appendAudit(tx, who.clienteId, ctx, 'sessao.encerrada', { alvoId: s.id })
  return ended.length
}

/** The person's live sessions, most recently used first. */
export async function listSessions(tx: Orm, who: { clienteId: string, usuarioId: string }, now: Date): Promise<SessionInfo[]> {
  return tx.select(COLUMNS).from(sessoes)
    .where(and(eq(sessoes.clienteId, who.clienteId), eq(sessoes.usuarioId, who.usuarioId), live(now)))
    .orderBy(desc(sessoes.ultimoAcessoEm))
}

/** Not ended, and neither expiry reached: the rule sessionRefusal applies to a session found by its cookie. */
function live(now: Date) {
  return and(isNull(sessoes.encerradaEm), gt(sessoes.expiraOciosaEm, now), gt(sessoes.expiraEm, now))
}
