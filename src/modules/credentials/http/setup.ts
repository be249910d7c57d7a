// The credential guard as the assembled service uses it: nonces and CSRF tokens keyed from the installation's
// secret (shared by every instance through the database), the replay cache on Redis when there is one (else the
// database), the session cookie's name as the web app sets it, and the per-credential budget.
import type { FastifyInstance, FastifyRequest } from 'fastify'
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
  onRateLimited?: (req: FastifyRequest) => void
}

/** After the rate-limit plugin (its store counts the credential's budget). */
export function credentialGuard(app: FastifyInstance, setup: CredentialSetup): CredentialGuard {
  const { clock, secret } = setup
  app.decorateRequest('credential', null)
  return makeCredentialGuard({
    db: setup.db,
    clock,
    publicUrl: setup.publicUrl,
    refusals: makeRefusals(DEFAULT_DPOP_ALGORITHMS),
    refusalsFor: (resourceMetadata) => makeRefusals(DEFAULT_DPOP_ALGORITHMS, resourceMetadata),
    dpop: {
      clock,
      nonces: makeDpopNonces({ key: derivedKey(secret, DPOP_NONCE_LABEL), clock }),
      jtis: setup.redis ? redisJtiStore(setup.redis, clock) : databaseJtiStore(setup.db.orm),
    },
    onStoreError: (err) => app.log.warn({ code: (err as { code?: string }).code }, 'DPoP replay store unavailable: proof refused with 503'),
    cookieName: sessionCookieName(setup.secureCookie),
    csrf: setup.csrf,
    limiter: keyedLimit(app, setup.budget, (req) => `credencial:${req.credential!.kind}:${req.credential!.id}`, setup.onRateLimited),
  })
}

/** Deletes the replay cache's expired rows every ten minutes (Redis expires its keys itself). */
export function jtiPurgeJob(db: Database): Job {
  return { name: 'dpop-jti-expurgo', schedule: { everyMs: 600_000 }, run: (now) => purgeExpiredJtis(db.orm, now) }
}
