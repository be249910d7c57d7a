// The credential guard as the assembled service uses it: nonces and CSRF tokens keyed from the installation's
// secret (shared by every instance through the database), the replay cache on Redis when there is one (else the
// database), the session cookie's name as the web app sets it, and the per-credential budget.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { normalizeIP } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { derivedKey } from '../../../platform/lib/derived-key.ts'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { keyedLimit } from '../../../platform/http/rate-limit.ts'
import type { Job } from '../../../platform/jobs/job.ts'
import { DEFAULT_DPOP_ALGORITHMS } from '../dpop/algorithms.ts'
import { databaseJtiStore, purgeExpiredJtis } from '../dpop/jti-store.ts'
import { redisJtiStore } from '../dpop/jti-store-redis.ts'
import { DPOP_NONCE_LABEL, makeDpopNonces } from '../dpop/nonces.ts'
import { sessionCookieName } from '../sessions/cookie.ts'
import type { CsrfTokens } from '../sessions/csrf.ts'
import { makeCredentialGuard, type CredentialGuard } from './guard.ts'
import { makeRefusals } from './refusals.ts'
import { keptTokenLookup } from '../tokens/lookup-cache.ts'
import { findTokenByHash } from '../tokens/store.ts'
import type { BackgroundWork } from '../../../platform/module.ts'
import { customerTurns, type TurnsConfig } from '../../../platform/http/customer-turns.ts'

export type CredentialSetup = {
  db: Database
  redis: Redis | undefined
  clock: Clock
  publicUrl: string
  /** The session cookie is the Secure `__Host-` one (sessionCookieSecure: what the web app sets). */
  secureCookie: boolean
  /** The installation's secret (src/modules/credentials/installation-secret.ts), read once by the app: DPoP nonces are keyed from it. */
  secret: string
  /** The web session's anti-CSRF tokens, the same the web app's forms carry. */
  csrf: CsrfTokens
  /** The per-credential budget (rateLimits.credencial). */
  budget: Budget
  /** The per-address budget of the refusals (401) the guard answers (rateLimits.restrito), whichever route. */
  refusalBudget: Budget
  onRateLimited?: (req: FastifyRequest) => void
  /** One customer's share of the instance (CLIENTE_*); none: no turns (a test's app may leave them out). */
  turns?: TurnsConfig
}

/**
 * After the rate-limit plugin (its store counts the credential's budget). `listening`: the background work that
 * drops the kept token lookups whenever the database notifies a change to what they read.
 */
export function credentialGuard(app: FastifyInstance, setup: CredentialSetup): { guard: CredentialGuard, listening: BackgroundWork } {
  const { clock, secret } = setup
  app.decorateRequest('credential', null)
  const tokenLookup = keptTokenLookup((hash) => findTokenByHash(setup.db.orm, hash))
  // Before answering a request that may have changed a credential (the change is committed by then), so the
  // client's next request, on this instance, reads it anew; other instances hear of it from the database.
  // A refused request changed nothing: only one that may have (any method but GET and HEAD, answered below 400).
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && reply.statusCode < 400) tokenLookup.forget()
    done(null, payload)
  })
  let unlisten: (() => Promise<void>) | undefined
  const listening: BackgroundWork = {
    async start() {
      try {
        unlisten = await setup.db.listen(CREDENTIALS_CHANNEL, () => tokenLookup.forget())
      } catch (err) {
        app.log.warn({ code: (err as { code?: string }).code }, 'credential change notifications unavailable: kept token lookups last their half second')
      }
    },
    // The database may be gone already (closed by whoever owns it): then there is nothing left to stop listening to.
    async stop() { await unlisten?.().catch(() => {}) },
  }
  const guard = makeCredentialGuard({
    db: setup.db,
    tokenLookup,
    clock,
    publicUrl: setup.publicUrl,
    refusals: makeRefusals(DEFAULT_DPOP_ALGORITHMS),
    refusalsFor: (resourceMetadata) => makeRefusals(DEFAULT_DPOP_ALGORITHMS, resourceMetadata),
    dpop: {
      clock,
      nonces: makeDpopNonces({ key: derivedKey(secret, DPOP_NONCE_LABEL), clock }),
      jtis: setup.redis ? redisJtiStore(setup.redis, clock) : databaseJtiStore(setup.db),
    },
    onStoreError: (err) => app.log.warn({ code: (err as { code?: string }).code }, 'DPoP replay store unavailable: proof refused with 503'),
    cookieName: sessionCookieName(setup.secureCookie),
    csrf: setup.csrf,
    limiter: keyedLimit(app, setup.budget, (req) => `credencial:${req.credential!.kind}:${req.credential!.id}`, setup.onRateLimited),
    refusalLimiter: keyedLimit(app, setup.refusalBudget, (req) => `recusa-401:${normalizeIP(req.ip, 64)}`, setup.onRateLimited, true),
    ...(setup.turns ? { turns: customerTurns(setup.turns) } : {}),
  })
  return { guard, listening }
}

/** Where migration 0022's triggers notify a change to what a token's lookup reads. */
export const CREDENTIALS_CHANNEL = 'credenciais'

/** Deletes the replay cache's expired rows every ten minutes (Redis expires its keys itself). */
export function jtiPurgeJob(db: Database): Job {
  return { name: 'dpop-jti-expurgo', schedule: { everyMs: 600_000 }, run: (now) => purgeExpiredJtis(db.orm, now) }
}
