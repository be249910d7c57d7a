// The login's budgets, in the app's rate-limit store (Redis shared by the instances, memory while it is away).
// Failed attempts count, successful ones do not (issue 31: twenty good logins from an office behind one public
// address once locked the whole office out for ten minutes): per address (guessing many accounts from one place),
// and per account AND address (guessing one account's password from one place). The second is bound to the address
// too, so that nobody can lock a person out by failing on purpose from elsewhere (issue 20): the person who knows
// the password, from their own address, is held back by nothing others tried. Failures are read before the password
// is checked and counted after, so attempts sent at once could all pass the read: a larger budget of every attempt
// per address, counted on arrival, bounds such a burst. An address is its IPv6 /64 (what one subscriber holds; IPv4
// as it is), so hopping within a prefix buys nothing. All are asked before the password is checked, for every
// e-mail alike, known or not: a refusal says nothing about whether an account exists. The e-mail is kept in the
// store only as a digest.
import { createHash } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Budget } from '../../../platform/http/rate-limit-config.ts'
import { keyedLimit, rateLimitFor } from '../../../platform/http/rate-limit.ts'

export type LoginBudgets = { porIp: Budget, porContaEEndereco: Budget, tentativasPorIp: Budget }

/**
 * 20 failures per address, 5 failures per account from one address, and 200 attempts of any outcome per address, in
 * 15 minutes (documented in the README).
 */
export const LOGIN_BUDGETS: LoginBudgets = {
  porIp: { max: 20, windowSeconds: 900 },
  porContaEEndereco: { max: 5, windowSeconds: 900 },
  tentativasPorIp: { max: 200, windowSeconds: 900 },
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
  const attempts = keyedLimit(app, budgets.tentativasPorIp, (req) => `conta-entrar-tentativas:${addressOf(req)}`)
  const failuresHere = app.createRateLimit({ ...rateLimitFor(budgets.porIp), keyGenerator: (req) => `conta-entrar-ip:${addressOf(req)}` })
  const failuresOfAccount = app.createRateLimit({
    ...rateLimitFor(budgets.porContaEEndereco), keyGenerator: (req) => `conta-entrar-email:${accountKey.get(req)}:${addressOf(req)}`,
  })
  const digest = (email: string) => createHash('sha256').update(email).digest('base64url')
  /** The seconds until a spent budget of failures has room again; undefined while it has. */
  const spent = async (limit: typeof failuresHere, req: FastifyRequest) => {
    const read = await limit(req, { increment: false })
    return !read.isAllowed && read.remaining === 0 && read.ttl > 0 ? read.ttlInSeconds : undefined
  }
  return {
    async admit(req, email) {
      const burst = await attempts(req)
      if (burst.exceeded) return burst.retryAfterSeconds
      accountKey.set(req, digest(email))
      return await spent(failuresHere, req) ?? await spent(failuresOfAccount, req)
    },
    async failed(req, email) {
      accountKey.set(req, digest(email))
      await failuresHere(req)
      await failuresOfAccount(req)
    },
  }
}
