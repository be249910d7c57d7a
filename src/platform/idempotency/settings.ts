// The Idempotency-Key store's setting.
import { int } from '../settings/kinds.ts'

export const IDEMPOTENCY_SETTINGS = {
  idempotencyTtlHours: int('IDEMPOTENCY_KEY_TTL_HOURS', {
    default: 24, min: 1, max: 720, description: 'how long an Idempotency-Key\'s answer is kept and replayed',
  }),
}
