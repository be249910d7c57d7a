// Calling the credentialed API as a client does: a personal access token as Bearer, or bound to a real key and
// presented with DPoP proofs made by jose, the server's nonce fetched the way RFC 9449 section 8 describes.
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { App } from '../../src/app.ts'
import { withTenant } from '../../src/platform/tenancy/tenancy.ts'
import { createToken } from '../../src/modules/credentials/tokens/store.ts'
import type { Scope } from '../../src/modules/credentials/scopes.ts'
import type { Database } from '../../src/platform/db/database.ts'
import { systemClock, type Clock } from '../../src/platform/lib/clock.ts'
import { goodClaims, makeProof, type ProofClaims, type TestKey } from '../modules/credentials/dpop-keys.ts'
import { operatorNow } from './credentials.ts'

/** The origin the test apps are configured with (PUBLIC_URL): proofs name it in `htu`. */
export const PUBLIC_URL = 'https://api.fatorial.example'
export const API_ENV = { PUBLIC_URL }

export type IssuedToken = { id: string, token: string }

/**
 * A token issued by the operator; by default with every scope but `mcp`, a day to live, not bound. A test that
 * runs the app on a clock of its own gives the same clock here (`clock`): the token is issued, and its expiry
 * checked, at that clock's now, never the machine's.
 */
export async function issueToken(
  db: Database, clienteId: string, opts: { escopos?: Scope[], dpopJkt?: string, expiraEm?: Date, nome?: string, clock?: Clock } = {},
): Promise<IssuedToken> {
  const now = (opts.clock ?? systemClock).now()
  const { token, info } = await withTenant(db, clienteId, (tx) => createToken(tx, {
    clienteId, usuarioId: null, nome: opts.nome ?? 'integração', escopos: opts.escopos ?? ['conta', 'tokens'],
    expiraEm: opts.expiraEm ?? new Date(now.getTime() + 86_400_000), dpopJkt: opts.dpopJkt ?? null,
  }, operatorNow(now)))
  return { id: info.id, token }
}

type Method = 'GET' | 'DELETE' | 'POST' | 'HEAD'

export function bearer(app: App, token: string, method: Method, url: string, extra: InjectOptions = {}): Promise<LightMyRequestResponse> {
  return app.inject({ ...extra, method, url, headers: { authorization: `Bearer ${token}`, ...extra.headers } })
}

/** One request with `Authorization: DPoP` and a proof of `key` (claims overridden by `claims`). */
export async function withProof(
  app: App, key: TestKey, token: string, method: Method, url: string, claims: ProofClaims = {}, extra: InjectOptions = {},
): Promise<LightMyRequestResponse> {
  const proof = await makeProof(key, { ...goodClaims(systemClock, method, PUBLIC_URL + url.split('?')[0], token), ...claims })
  return app.inject({ ...extra, method, url, headers: { authorization: `DPoP ${token}`, dpop: proof, ...extra.headers } })
}

/** The server's current nonce, as a client learns it: from the refusal of a first proof without one. */
export async function currentNonce(app: App, key: TestKey, token: string): Promise<string> {
  const res = await withProof(app, key, token, 'GET', '/api/conta')
  const nonce = res.headers['dpop-nonce']
  if (res.statusCode !== 401 || typeof nonce !== 'string') throw new Error(`expected 401 with DPoP-Nonce, got ${res.statusCode}: ${res.body}`)
  return nonce
}

/** A request with a good proof carrying the server's nonce: the second leg of the round trip. */
export async function dpopCall(app: App, key: TestKey, token: string, method: Method, url: string, extra: InjectOptions = {}): Promise<LightMyRequestResponse> {
  return withProof(app, key, token, method, url, { nonce: await currentNonce(app, key, token) }, extra)
}
