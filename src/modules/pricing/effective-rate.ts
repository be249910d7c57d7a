// The effective monthly rate of a borderô: the r that solves Σ VF / (1 + r)^(n/30) = net amount (produto.md §2.6),
// answered as the API writes it, to six decimal places, half up. The answer is A millionths exactly when the root
// lies in [A − ½, A + ½) millionths, and since the left side falls as r grows, that is a question of two signs: of
// f(r) = Σ VF · (1 + r)^(−n/30) − net at those two midpoints. A guess in binary floating point says which A to
// ask about; the signs are decided in fixed point with a bound on its error, so the float only chooses where to
// look, never the answer. A guess that misses walks to the right A, a sign too close to call is asked
// again with more digits, and a root exactly on a midpoint (possible: some day counts make the power rational)
// rounds up. The signs are computed on BigInt alone: exact integers and a bound on the one truncation each step
// makes, where decimal.js's logarithm and exponential took three quarters of the time (docs/decisions.md).
import { floorRoot, raisedScaled, scaledGuess } from './exact.ts'

export type Flow = { valor: bigint, dias: number }

type Term = { dias: number, valor: bigint }

/** Millionths in a unit: six decimal places. */
const PLACES = 6
const UNIT = 10n ** BigInt(PLACES)
/** A million a month: beyond it no rate is given. */
const MAX_UNITS = 1_000_000n * UNIT

/** The rate to six places, half up ("0.046060"), or null when no rate up to a million a month gives the net amount. */
export function effectiveMonthlyRate(flows: readonly Flow[], netCentavos: bigint): string | null {
  if (netCentavos <= 0n || flows.length === 0) return null
  const terms = grouped(flows)
  const face = terms.reduce((s, t) => s + t.valor, 0n)
  // f(0) is face − net, exact: nothing discounted (or a net above the face values) has no positive rate.
  if (face <= netCentavos) return asRate(0n)
  // At r = 0 f is positive; with no day to discount over it stays so, and past a million a month no rate is given.
  const f = (halves: bigint) => signAt(terms, netCentavos, halves)
  if (f(2n * MAX_UNITS) > 0) return null
  // below(A): the root lies below A + ½ millionth. The smallest such A is the answer; below(MAX_UNITS) holds.
  const below = (a: bigint) => f(2n * a + 1n) < 0
  const guess = floatGuess(terms.map((t) => ({ dias: t.dias, valor: Number(t.valor) })), Number(netCentavos))
  const start = guess === undefined ? undefined : BigInt(Math.min(Math.max(Math.round(guess * 1e6), 0), Number(MAX_UNITS)))
  return asRate(smallest(below, start ?? 0n, MAX_UNITS))
}

/** Títulos with the same day count discount together: a thousand títulos are at most a few hundred terms. */
function grouped(flows: readonly Flow[]): Term[] {
  const byDays = new Map<number, bigint>()
  for (const f of flows) {
    if (!Number.isSafeInteger(f.dias) || f.dias < 0) throw new RangeError('a day count of a flow is a whole number, not negative')
    byDays.set(f.dias, (byDays.get(f.dias) ?? 0n) + f.valor)
  }
  return [...byDays].sort(([a], [b]) => a - b).map(([dias, valor]) => ({ dias, valor }))
}

const asRate = (units: bigint): string => {
  const digits = units.toString().padStart(PLACES + 1, '0')
  return `${digits.slice(0, -PLACES)}.${digits.slice(-PLACES)}`
}

/**
 * The least a in [0, max] for which `holds` (false below some point, true from it on), searched from `start`: a
 * good guess costs two questions, a poor one a gallop and a bisection.
 */
export function smallest(holds: (a: bigint) => boolean, start: bigint, max: bigint): bigint {
  let lo: bigint // holds(lo) is false, or lo = −1
  let hi: bigint // holds(hi) is true
  if (holds(start)) {
    hi = start
    let step = 1n
    lo = hi - step
    while (lo >= 0n && holds(lo)) {
      hi = lo
      step *= 2n
      lo = hi - step
    }
    if (lo < 0n) lo = -1n
  } else {
    lo = start
    let step = 1n
    hi = lo + step
    while (hi < max && !holds(hi)) {
      lo = hi
      step *= 2n
      hi = lo + step
    }
    if (hi > max) hi = max
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (holds(mid)) hi = mid
    else lo = mid
  }
  return hi
}

/**
 * Digits the sign is first asked with, then (rarely) again with more. Face values of up to 2^53 centavos make f a
 * sum of a few hundred terms of at most 16 digits each: a value within 10^−300 of zero that is not zero would need
 * them chosen for it, and is taken for the tie it is indistinguishable from.
 */
const DIGITS = [30, 100, 300]

/** The sign of f at r = halves / (2 · UNIT): 1, −1, or 0 when even the most digits cannot tell it from zero (a tie). */
function signAt(terms: readonly Term[], net: bigint, halves: bigint): -1 | 0 | 1 {
  for (const digits of DIGITS) {
    const { value, error } = fAt(terms, net, halves, digits)
    if (value > error) return 1
    if (value < -error) return -1
  }
  return 0
}

/**
 * f at r = halves / (2 · UNIT), as an integer scaled by 10^digits, with a bound on how far it may be from the true
 * value. One day's discount, (1 + r)^(−1/30), is the exact integer 30th root (truncated) of the scaled fraction
 * 2·UNIT / (2·UNIT + halves); each term's is a whole power of it, carried along the days in order, truncated at the
 * scale. The day's factor is off by under a unit, and each multiplication by a factor at most one adds under a
 * unit: after d days the power is off by under 2·d units, and each term's share of the error is its face value
 * times that.
 */
function fAt(terms: readonly Term[], net: bigint, halves: bigint, digits: number): { value: bigint, error: bigint } {
  const scale = 10n ** BigInt(digits)
  const guess = scaledGuess(Math.pow(1 + Number(halves) / Number(2n * UNIT), -1 / 30), digits)
  const perDay = floorRoot(scale ** 30n * 2n * UNIT / (2n * UNIT + halves), 30n, guess)
  let power = scale
  let at = 0
  let value = -net * scale
  let error = 0n
  for (const { dias, valor } of terms) {
    power = raisedScaled(power, perDay, dias - at, scale)
    at = dias
    value += valor * power
    error += valor * (2n * BigInt(dias) + 1n)
  }
  return { value, error }
}

/** The root in binary floating point (bisection and Newton), or undefined when it found none: a guess, never the answer. */
function floatGuess(terms: readonly { dias: number, valor: number }[], net: number): number | undefined {
  const f = (r: number) => {
    let value = -net
    let slope = 0
    for (const { dias, valor } of terms) {
      const discounted = valor * Math.pow(1 + r, -dias / 30)
      value += discounted
      slope -= discounted * (dias / 30) / (1 + r)
    }
    return { value, slope }
  }
  let lo = 0
  let hi = 1
  while (f(hi).value > 0) {
    if (hi >= 1e6) return undefined
    hi = Math.min(hi * 2, 1e6)
  }
  let r = (lo + hi) / 2
  for (let step = 0; step < 200; step++) {
    const { value, slope } = f(r)
    if (value > 0) lo = r
    else hi = r
    let next = slope === 0 ? (lo + hi) / 2 : r - value / slope
    if (!(next > lo && next < hi)) next = (lo + hi) / 2
    if (Math.abs(next - r) <= 1e-16 * Math.max(1, r)) return next
    r = next
  }
  return Number.isFinite(r) ? r : undefined
}
