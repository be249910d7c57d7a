// Server-issued DPoP nonces (RFC 9449 section 9) without shared state: a nonce is the HMAC-SHA256 of the time
// step under a key every instance derives from the installation's secret, so any instance recognises a nonce
// another one issued. Personal access tokens live long, and section 11.2 asks for nonces then: a proof made in
// advance (with an iat in the future, by someone who held the key for a moment) is useless once its nonce is
// two steps old.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { BoundedMemo } from '../../../platform/lib/bounded-memo.ts'
import type { Clock } from '../../../platform/lib/clock.ts'

export type DpopNonces = {
  /** The nonce to send in `DPoP-Nonce` now. */
  currentNonce(): string
  /** True for a nonce of the current or the previous step (or of the next, in its last seconds: instances' clocks differ). */
  isValid(nonce: string): boolean
}

export type DpopNonceOptions = {
  /** At least 32 bytes; `derivedKey(secret, DPOP_NONCE_LABEL)` (src/platform/lib/derived-key.ts) of the installation's secret. */
  key: Buffer
  clock: Clock
  /** A nonce is accepted for one to two steps after it is first issued. */
  stepSeconds?: number
  /** How far apart instances' clocks may be: the next step's nonce is accepted this long before it begins. */
  clockSkewSeconds?: number
}

export const DPOP_NONCE_LABEL = 'dpop-nonce/v1'

export function makeDpopNonces(opts: DpopNonceOptions): DpopNonces {
  if (opts.key.length < 32) throw new TypeError('the DPoP nonce key must have at least 32 bytes')
  const stepMs = (opts.stepSeconds ?? 60) * 1000
  const skewMs = (opts.clockSkewSeconds ?? 5) * 1000
  // Each step's nonce is asked for on every DPoP request (three HMACs a request): kept for the few steps in use.
  const known = new BoundedMemo<string>(8)
  const nonceOf = (step: number) => known.get(String(step), () => computeNonce(step))
  const computeNonce = (step: number) => {
    const counter = Buffer.alloc(8)
    counter.writeBigUInt64BE(BigInt(step))
    // Never a leading '-' (a base64url digest starts with one once in 64 steps): a command line would read the
    // nonce as an option (`--nonce -Xy…`, as node's parseArgs and getopt do), so a fixed letter leads.
    return `n${createHmac('sha256', opts.key).update(counter).digest('base64url')}`
  }
  const stepAt = (ms: number) => Math.floor(ms / stepMs)
  return {
    currentNonce: () => nonceOf(stepAt(opts.clock.now().getTime())),
    isValid(nonce) {
      const now = opts.clock.now().getTime()
      const current = stepAt(now)
      const steps = new Set([current, current - 1, stepAt(now + skewMs)])
      const given = Buffer.from(nonce)
      let valid = false
      // Every candidate is compared, in constant time: how long a check takes says nothing about which step matched.
      for (const step of steps) {
        const expected = Buffer.from(nonceOf(step))
        if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true
      }
      return valid
    },
  }
}
