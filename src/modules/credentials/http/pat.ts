// A personal access token in `Authorization`: `Bearer` for an unbound one, `DPoP` plus exactly one `DPoP` proof
// header for one bound to a key. No permissive fallback: a bound token is never accepted without its proof.
//
// Order of the checks: the token itself (format, then the SECURITY DEFINER lookup; revoked, expired or its
// maker suspended is `token_invalido`), then its binding and proof, then the customer's subscription, so a
// suspended customer's 403 is only told to someone who proved possession. A refused proof of a token that was
// itself good is audited for the token's customer: it is a stolen token, or a broken client, worth seeing.
import { problem } from '../../../platform/http/problem.ts'
import { appendAudit } from '../../../platform/tenancy/audit/store.ts'
import { verifyDpopProof, type DpopResult, type DpopVerifierDeps } from '../dpop/proof.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import { findTokenByHash, recordTokenUse, tokenRefusal, tokenUseIsNews, type FoundToken } from '../tokens/store.ts'
import type { TokenLookup } from '../tokens/lookup-cache.ts'
import { tokenHash, tokenKind } from '../token-format.ts'
import type { AuthScheme } from './authorization.ts'
import { actionContext, headerValues, type CheckDeps, type CheckResult, type Credential, type CredentialRequest } from './credential.ts'

export type PatDeps = CheckDeps & {
  /** The lookups this process keeps for a moment (lookup-cache.ts); without it, every request reads the token. */
  tokenLookup?: TokenLookup
  dpop: DpopVerifierDeps
  /** Told when the replay store cannot answer (the request is refused with 503). */
  onStoreError(err: unknown): void
}

export async function checkPat(req: CredentialRequest, auth: { scheme: AuthScheme, token: string }, deps: PatDeps): Promise<CheckResult> {
  const { refusals } = deps
  const digest = tokenKind(auth.token) === 'pat' ? tokenHash(auth.token) : undefined
  const found = digest === undefined ? undefined
    : deps.tokenLookup ? await deps.tokenLookup.find(digest) : await findTokenByHash(deps.db.orm, digest)
  if (!found) return { ok: false, answer: refusals.invalidToken(auth.scheme, 'the token is malformed or unknown') }
  const now = deps.clock.now()
  const refusal = tokenRefusal(found, now)
  if (refusal && refusal !== 'cliente_suspenso') {
    return { ok: false, answer: refusals.invalidToken(auth.scheme, refusal === 'expirado' ? 'the token has expired' : 'the token was revoked') }
  }
  let headers: Record<string, string> | undefined
  if (auth.scheme === 'Bearer') {
    if (found.dpopJkt !== null) {
      await auditRefused(req, found, 'bearer_sem_dpop', deps)
      return { ok: false, answer: refusals.dpopRequired('Bearer') }
    }
  } else {
    if (found.dpopJkt === null) return { ok: false, answer: refusals.invalidToken('DPoP', 'the token is not bound to a key: send it as Bearer') }
    const proved = await proveDpop(req, digest!, found, deps)
    if (!proved.ok) return proved
    headers = proved.headers
  }
  if (refusal === 'cliente_suspenso') return { ok: false, answer: problem('assinatura_inativa'), headers }
  const credential: Credential = {
    kind: 'pat', id: found.id, clienteId: found.clienteId, usuarioId: found.usuarioId, papel: found.usuarioPapel, escopos: found.escopos,
    expiraEm: found.expiraEm,
    dpop: found.dpopJkt !== null,
  }
  if (tokenUseIsNews(found, req.ip, now)) {
    // Noted on the kept lookup first, so the requests that share it do not all write the same use.
    found.primeiroUsoEm ??= now
    found.ultimoUsoEm = now
    found.ultimoUsoIp = req.ip
    await withTenant(deps.db, found.clienteId, (tx) =>
      recordTokenUse(tx, { clienteId: found.clienteId, tokenId: found.id, ip: req.ip }, actionContext(req, { tipo: 'token', id: found.id }, now)))
  }
  return { ok: true, credential, headers }
}

type Proved = { ok: true, headers: Record<string, string> | undefined } | Extract<CheckResult, { ok: false }>

async function proveDpop(req: CredentialRequest, digest: string, found: FoundToken, deps: PatDeps): Promise<Proved> {
  const { refusals } = deps
  const path = req.url.split('?')[0]!
  let result: DpopResult
  try {
    result = await verifyDpopProof({
      proofs: headerValues(req, 'dpop'), method: req.method, htu: deps.publicUrl + path, accessTokenDigest: digest, dpopJkt: found.dpopJkt!,
    }, deps.dpop)
  } catch (err) {
    // The replay store did not answer: a proof that cannot be recorded is not accepted (fail closed).
    deps.onStoreError(err)
    return { ok: false, answer: problem('servico_indisponivel', { 'retry-after': '5' }) }
  }
  if (result.ok) return { ok: true, headers: result.nextNonce ? { 'dpop-nonce': result.nextNonce } : undefined }
  if (result.error === 'use_dpop_nonce') return { ok: false, answer: refusals.useNonce(result.nonce) }
  if (result.check === 'missing') {
    await auditRefused(req, found, 'dpop_ausente', deps)
    return { ok: false, answer: refusals.dpopRequired('DPoP'), headers: { 'dpop-nonce': result.nonce } }
  }
  await auditRefused(req, found, `dpop_${result.check}`, deps)
  return { ok: false, answer: refusals.invalidProof(result.nonce) }
}

async function auditRefused(req: CredentialRequest, found: FoundToken, motivo: string, deps: PatDeps): Promise<void> {
  const ctx = actionContext(req, { tipo: 'token', id: found.id }, deps.clock.now())
  await withTenant(deps.db, found.clienteId, (tx) => appendAudit(tx, found.clienteId, ctx, 'token.recusado', { alvoId: found.id, motivo }))
}
