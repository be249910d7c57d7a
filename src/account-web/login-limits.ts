// The login's budgets, in the app's rate-limit store (Redis shared by the instances, memory while it is away):
// per address, every attempt counts (guessing many accounts from one place); per account, failed attempts only
// (guessing one account's password from many places), so that a person who types their password right is never
// held back by what others tried. Both are asked before the password is checked, for every e-mail alike, known or
// not: a refusal says nothing about whether an account exists. The e-mail is kept in the store only as a digest.
import { createHash } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Budget } from '../http/rate-limit-config.ts'
import { keyedLimit, rateLimitFor } from '../http/rate-limit.ts'

export type LoginBudgets = { porIp: Budget, porConta: Budget }

/** 20 attempts per address and 5 failures per account in 15 minutes (documented in the README). */
export const LOGIN_BUDGETS: LoginBudgets = {
  porIp: { max: 20, windowSeconds: 900 },
  porConta: { max: 5, windowSeconds: 900 },
}

export type LoginLimits = {
  /** Counts this attempt; undefined when it may go on, else the seconds to wait. */
  admit(req: FastifyRequest, email: string): Promise<number | undefined>
  /** Counts a failed attempt against the account. */
  failed(req: FastifyRequest, email: string): Promise<void>
}

export function makeLoginLimits(app: FastifyInstance, budgets: LoginBudgets = LOGIN_BUDGETS): LoginLimits {
  // The limiter's key generator sees only the request: the account's key is handed over through this map.
  const accountKey = new WeakMap<FastifyRequest, string>()
  const perIp = keyedLimit(app, budgets.porIp, (req) => `conta-entrar-ip:${normalizeIP(req.ip, 64)}`)
  const perAccount = app.createRateLimit({ ...rateLimitFor(budgets.porConta), keyGenerator: (req) => `conta-entrar-email:${accountKey.get(req)}` })
  const digest = (email: string) => createHash('sha256').update(email).digest('base64url')
  return {
    async admit(req, email) {
      const ip = await perIp(req)
      if (ip.exceeded) return ip.retryAfterSeconds
      accountKey.set(req, digest(email))
      const account = await perAccount(req, { increment: false })
      if (!account.isAllowed && account.remaining === 0 && account.ttl > 0) return account.ttlInSeconds
      return undefined
    },
    async failed(req, email) {
      accountKey.set(req, digest(email))
      await perAccount(req)
    },
  }
}
