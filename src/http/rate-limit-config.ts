// Per-IP budgets, generous for reads and probes, strict for the contact form (a handful per ten minutes); and
// one per credential.
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
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  leitura: { max: 300, windowSeconds: 60 },
  contato: { max: 5, windowSeconds: 600 },
  restrito: { max: 60, windowSeconds: 60 },
  credencial: { max: 120, windowSeconds: 60 },
}
