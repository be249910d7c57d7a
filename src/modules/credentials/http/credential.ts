// What an authenticated /api request carries for its route, and what the credential checks give back: the
// credential, or the answer that refuses it. The checks never send anything; the guard (guard.ts) does.
import { auditRequestIds } from '../../../platform/http/request-id.ts'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import type { HttpProblem } from '../../../platform/http/problem.ts'
import type { Actor, ActionContext } from '../../../platform/tenancy/audit/store.ts'
import type { Papel } from '../roles.ts'
import type { Scope } from '../scopes.ts'
import type { Refusals } from './refusals.ts'

export type Credential = {
  /** `pat`: a personal access token; `sessao`: the web app's session cookie. */
  kind: 'pat' | 'sessao'
  /** The token's or the session's id. */
  id: string
  clienteId: string
  /** The person behind it; null for a token the operator made. */
  usuarioId: string | null
  /** That person's role now (a token's maker's, read at each request); null for a token the operator made. */
  papel: Papel | null
  escopos: readonly Scope[]
  expiraEm: Date
  /** Presented with a DPoP proof of the key the token is bound to. */
  dpop: boolean
}

/** The request as the checks read it (a Fastify request is one). */
export type CredentialRequest = {
  id: string
  method: string
  url: string
  ip: string
  headers: Record<string, string | string[] | undefined>
  raw: { rawHeaders: string[] }
}

/** What every credential check needs. */
export type CheckDeps = {
  db: Pick<Database, 'orm'>
  clock: Clock
  /**
   * The origin clients call (PUBLIC_URL), never taken from `Host`: a proof's `htu` is it and the path; a session's
   * request must come from it.
   */
  publicUrl: string
  refusals: Refusals
}

export type CheckResult =
  | { ok: true, credential: Credential, headers?: Record<string, string> }
  /** `headers`: sent with the refusal besides the problem's own (a fresh DPoP-Nonce). */
  | { ok: false, answer: HttpProblem, headers?: Record<string, string> }

/** Who acts in the audit trail when a credential does something. */
export function actorOf(credential: Pick<Credential, 'kind' | 'id' | 'usuarioId'>): Actor {
  return credential.kind === 'pat' ? { tipo: 'token', id: credential.id } : { tipo: 'usuario', id: credential.usuarioId! }
}

/** The request's ids as the audit trail keeps them: the service's own, and the client's X-Request-ID beside it. */
export function actionContext(req: Pick<CredentialRequest, 'id' | 'ip' | 'raw'>, actor: Actor, now: Date): ActionContext {
  return { actor, now, ...auditRequestIds(req), ip: req.ip }
}

/** Every value of header `name` as sent, counted in rawHeaders: Node joins or drops repeated ones. */
export function headerValues(req: CredentialRequest, name: string): string[] {
  const raw = req.raw.rawHeaders
  const values: string[] = []
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) values.push(raw[i + 1]!)
  return values
}
