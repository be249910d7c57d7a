// Per-IP budgets, generous for reads and probes, strict for the contact form (a handful per ten minutes); and
// one per credential.
import type { FileSetting } from '../settings/kinds.ts'

export type Budget = { max: number, windowSeconds: number }
export type RateLimits = {
  /** GET endpoints and probes. */
  leitura: Budget
  /** POST /api/site/contato and the site's own form handler. */
  contato: Budget
  /** Everything else under /api (the 401 answers). */
  restrito: Budget
  /** Per credential (a token, a session), on top of the per-IP budgets: an integration's own share. */
  credencial: Budget
  /** A bank's file sent (POST /api/cnab/retornos): each up to tens of megabytes and 100,000 rows stored. */
  arquivos: Budget
  /** The sacado's confirmation page (/confirmacao/{token}), read and answered: a person's handful. */
  confirmacao: Budget
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  leitura: { max: 300, windowSeconds: 60 },
  contato: { max: 5, windowSeconds: 600 },
  restrito: { max: 60, windowSeconds: 60 },
  credencial: { max: 120, windowSeconds: 60 },
  arquivos: { max: 30, windowSeconds: 600 },
  confirmacao: { max: 30, windowSeconds: 600 },
}

/** SERVICE_CONFIG_FILE's `rateLimits`: some budgets replaced, the rest kept. */
export const RATE_LIMITS_SETTING: FileSetting<RateLimits> = {
  from: 'file',
  key: 'rateLimits',
  description: 'budgets replacing the defaults, each {max, windowSeconds}',
  read(value, fail) {
    if (value === undefined) return DEFAULT_RATE_LIMITS
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('"rateLimits" must be an object of budgets')
    for (const [k, v] of Object.entries(value as Record<string, Budget | null>)) {
      if (!Object.hasOwn(DEFAULT_RATE_LIMITS, k)) fail(`unknown budget rateLimits.${k} (expected ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`)
      const ok = v && Number.isInteger(v.max) && v.max > 0 && Number.isInteger(v.windowSeconds) && v.windowSeconds > 0
      if (!ok) fail(`rateLimits.${k} must be {max, windowSeconds} with whole numbers above 0`)
    }
    return { ...DEFAULT_RATE_LIMITS, ...value as Partial<RateLimits> }
  },
}
