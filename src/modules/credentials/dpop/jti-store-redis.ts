// The replay cache on Redis, for deployments that set REDIS_URL: SET NX with the remaining lifetime as PX is one
// atomic command, and Redis drops the key by itself when it expires (no purge).
import type { Redis } from 'ioredis'
import type { Clock } from '../../../platform/lib/clock.ts'
import type { JtiStore } from './jti-store.ts'

export const REDIS_JTI_PREFIX = 'dpop:jti:'

/**
 * A command that fails (Redis unreachable, the client's command timeout) rejects: the caller answers 503 rather
 * than accept a proof it could not record, or count it on a store the other instances do not read.
 */
export function redisJtiStore(redis: Redis, clock: Clock, prefix = REDIS_JTI_PREFIX): JtiStore {
  return {
    async remember(key, expiresAt) {
      const ttlMs = Math.max(1, expiresAt.getTime() - clock.now().getTime())
      return (await redis.set(prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK'
    },
  }
}
