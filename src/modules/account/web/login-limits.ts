// The login's budgets, in the app's rate-limit store (Redis shared by the instances, memory while it is away):
// per address, every attempt counts (guessing many accounts from one place); per account AND address, failed
// attempts only (guessing one account's password from one place). The second is bound to the address too, so that
// nobody can lock a person out by failing on purpose from elsewhere (issue 20): the person who knows the password,
// from their own address, is held back by nothing others tried. An address is its IPv6 /64 (what one subscriber
// holds; IPv4 as it is), so hopping within a prefix buys nothing. Both are asked before the password is checked,
// for every e-mail alike, known or not: a refusal says nothing about whether an account exists. The e-mail is
// kept in the store only as a digest.
import { createHash } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { keyedLimit, rateLimitFor } from '../../../platform/http/rate-limit.ts'

export type LoginBudgets = { porIp: Budget, porContaEEndereco: Budget }

/** 20 attempts per address, and 5 failures per account from one address, in 15 minutes (documented in the README). */
export const LOGIN_BUDGETS: LoginBudgets = {
  porIp: { max: 20, windowSeconds: 900 },
  porContaEEndereco: { max: 5, windowSeconds: 900 },
}

export type LoginLimits = {
  /** Counts this attempt; undefined when it may go on, else the seconds to wait. */
  admit(req: FastifyRequest, email: string): Promise<number | undefined>
  /** Counts a failed attempt against the account from this address. */
  failed(req: FastifyRequest, email: string): Promise<void>
}

/** The client's address as the budgets count it: its /64 for IPv6. */
const addressOf = (req: FastifyRequest) => normalizeIP(req.ip, 64)

export function makeLoginLimits(app: FastifyInstance, budgets: LoginBudgets = LOGIN_BUDGETS): LoginLimits {
  // The limiter's key generator sees only the request: the account's part of the key is handed over through this map.
  const accountKey = new WeakMap<FastifyRequest, string>()
  const perIp = keyedLimit(app, budgets.porIp, (req) => `conta-entrar-ip:${addressOf(req)}`)
  const perAccount = app.createRateLimit({
    ...rateLimitFor(budgets.porContaEEndereco), keyGenerator: (req) => `conta-entrar-email:${accountKey.get(req)}:${addressOf(req)}`,
  })
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
