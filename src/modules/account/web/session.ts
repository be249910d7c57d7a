// The web app's view of a session: the live one a request's cookie names (a use pushes its idle expiry, written at
// most once a minute, as the API's guard does), and
// ending the one a cookie names when a person logs in again (the session is rotated: a new one, never the old).
import type { ActionContext } from '../../../platform/tenancy/audit/store.ts'
import { endSession, findSession, type Papel, sessionAccessIsNews, sessionRefusal, touchSession, type SessionLimits } from '../../credentials/index.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import type { Database } from '../../../platform/db/database.ts'

/** `papel`: the person's role as the lookup found it (what a page offers; every change is checked again by the API). */
export type LiveSession = { id: string, clienteId: string, usuarioId: string, papel: Papel }

/** The session of `token` if it may be used now (and marks this use); undefined otherwise. */
export async function liveSession(db: Database, token: string | undefined, now: Date, limits: SessionLimits): Promise<LiveSession | undefined> {
  if (!token) return undefined
  const found = await findSession(db.orm, token)
  if (!found || sessionRefusal(found, now)) return undefined
  const live = { id: found.id, clienteId: found.clienteId, usuarioId: found.usuarioId, papel: found.usuarioPapel }
  if (!sessionAccessIsNews(found, now)) return live
  const ref = { clienteId: found.clienteId, sessaoId: found.id }
  const touched = await withTenant(db, found.clienteId, (tx) => touchSession(tx, ref, now, limits))
  return touched ? live : undefined
}

/** Ends the session `token` names, if it is still open (whoever's it was: the browser is changing hands). */
export async function endCookieSession(db: Database, token: string | undefined, ctx: Omit<ActionContext, 'actor'>): Promise<void> {
  if (!token) return
  const found = await findSession(db.orm, token)
  if (!found || found.encerradaEm !== null) return
  await withTenant(db, found.clienteId, (tx) => endSession(tx, { clienteId: found.clienteId, sessaoId: found.id }, {
    ...ctx, actor: { tipo: 'usuario', id: found.usuarioId },
  }))
}
