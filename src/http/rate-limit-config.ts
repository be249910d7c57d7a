// Per-IP budgets. Generous for reads and probes, strict for the contact form (a handful per ten minutes).
export type Budget = { max: number, windowSeconds: number }
export type RateLimits = {
  /** GET endpoints and probes. */
  leitura: Budget
  /** POST /api/site/contato and the site's own form handler. */
  contato: Budget
  /** Everything else under /api (the 401 answers). */
  restrito: Budget
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  leitura: { max: 300, windowSeconds: 60 },
  contato: { max: 5, windowSeconds: 600 },
  restrito: { max: 60, windowSeconds: 60 },
}
