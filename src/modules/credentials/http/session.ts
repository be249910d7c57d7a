// The web app's session cookie as an /api credential: from the site's own pages only. A request another site
// made (Origin or Sec-Fetch-Site say so) is treated as carrying no credential at all; a method that changes
// data also needs the session's anti-CSRF token in `X-CSRF-Token` (SameSite=Lax alone lets top-level POSTs
// from other sites through in some browsers, and says nothing of a sibling subdomain).
import { problem } from '../../../platform/http/problem.ts'
import { SCOPES } from '../scopes.ts'
import { cookieValue } from '../sessions/cookie.ts'
import type { CsrfTokens } from '../sessions/csrf.ts'
import { findSession, sessionAccessIsNews, sessionRefusal, touchSession } from '../sessions/store.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import type { CheckDeps, CheckResult, CredentialRequest } from './credential.ts'

export const CSRF_HEADER = 'x-csrf-token'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export type SessionDeps = CheckDeps & {
  /** The cookie's name (sessionCookieName: `__Host-sessao` when the web app sets it Secure). */
  cookieName: string
  csrf: CsrfTokens
}

/** Undefined when the request carries no session cookie this origin accepts (the caller answers `nao_autenticado`). */
export async function checkSession(req: CredentialRequest, deps: SessionDeps): Promise<CheckResult | undefined> {
  const token = cookieValue(req.headers.cookie, deps.cookieName)
  if (token === undefined || !sameOrigin(req, deps.publicUrl)) return undefined
  const found = await findSession(deps.db.orm, token)
  const now = deps.clock.now()
  const refusal = found && sessionRefusal(found, now)
  if (!found || (refusal && refusal !== 'cliente_suspenso')) return { ok: false, answer: deps.refusals.unauthenticated }
  if (!SAFE_METHODS.has(req.method) && !deps.csrf.verify(found.id, req.headers[CSRF_HEADER])) return { ok: false, answer: problem('csrf_invalido') }
  if (refusal === 'cliente_suspenso') return { ok: false, answer: problem('assinatura_inativa') }
  // The lookup found it live; its idle expiry is pushed forward (a write) at most once a minute.
  if (sessionAccessIsNews(found, now)) {
    const live = await withTenant(deps.db, found.clienteId, (tx) => touchSession(tx, { clienteId: found.clienteId, sessaoId: found.id }, now))
    if (!live) return { ok: false, answer: deps.refusals.unauthenticated }
  }
  return {
    ok: true,
    credential: {
      kind: 'sessao', id: found.id, clienteId: found.clienteId, usuarioId: found.usuarioId, papel: found.usuarioPapel, escopos: SCOPES,
      expiraEm: found.expiraEm, dpop: false,
    },
  }
}

/**
 * Same origin as the site: a browser's Sec-Fetch-Site, when sent, must say so (`none`, a typed address, only for
 * a read), and so must Origin. A method that changes data must show one of the two: browsers send Origin on
 * every such request.
 */
function sameOrigin(req: CredentialRequest, publicUrl: string): boolean {
  const site = req.headers['sec-fetch-site']
  const origin = req.headers.origin
  const safe = SAFE_METHODS.has(req.method)
  if (site !== undefined && site !== 'same-origin' && !(safe && site === 'none')) return false
  if (origin !== undefined && origin !== publicUrl) return false
  return safe || origin === publicUrl || site === 'same-origin'
}
