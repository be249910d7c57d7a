// Exact arithmetic on integers. A face value in centavos times a rate of at most twelve places (times whole days) is
// a fraction with a power of ten (times 30) below it, rounded once, half up: BigInt holds it without a digit lost
// and without a library's objects. Where a power with a fractional exponent makes a value irrational (composta_30,
// the effective rate), fixed point on BigInt with a bound on its error decides the rounding, and the rational cases
// (a whole number of months, a rate whose growth is a perfect power) are computed exactly.

/** A decimal string as a fraction: "0.035" → 35/1000. Refuses anything but plain digits (a rate read from the database is numeric::text). */
export function decimalFraction(s: string): { num: bigint, den: bigint } {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s)
  if (!m) throw new RangeError(`not a plain decimal: ${JSON.stringify(s)}`)
  const frac = m[3] ?? ''
  const num = BigInt(m[2]! + frac)
  return { num: m[1] ? -num : num, den: 10n ** BigInt(frac.length) }
}

/** num/den (den > 0) rounded to an integer, half away from zero: decimal.js's ROUND_HALF_UP, the product's rounding. */
export function roundHalfUp(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('a fraction\'s denominator must be positive')
  const magnitude = (2n * (num < 0n ? -num : num) + den) / (2n * den)
  return num < 0n ? -magnitude : magnitude
}

/** num/den (both ≥ 0, den > 0) with `places` decimals, half up, as the API writes a ratio ("12.35"). */
export function fixedFraction(num: bigint, den: bigint, places: number): string {
  const scaled = roundHalfUp(num * 10n ** BigInt(places), den)
  const digits = scaled.toString().padStart(places + 1, '0')
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`
}

/**
 * ⌊a^(1/n)⌋ by Newton's method on integers, from `guess` (any positive number; a close one saves steps). One step
 * from any positive x lands at or above the root (the mean of n − 1 copies of x and a/x^(n−1) is at least their
 * geometric mean), and from above the steps fall to it; the end is checked, not trusted.
 */
export function floorRoot(a: bigint, n: bigint, guess: bigint): bigint {
  if (a < 0n || n < 1n) throw new RangeError('a root of a non-negative integer, of a positive order')
  if (a < 2n) return a
  const step = (x: bigint) => ((n - 1n) * x + a / x ** (n - 1n)) / n
  let x = step(guess > 0n ? guess : 1n)
  for (let next = step(x); next < x; next = step(x)) x = next
  while (x ** n > a) x -= 1n
  while ((x + 1n) ** n <= a) x += 1n
  return x
}

/**
 * power · factor^times, each product truncated to `scale` (square and multiply). For values at most one, a
 * product's error is at most the sum of its factors' errors plus one unit, so factor^g is off by at most g times
 * the factor's error plus g − 1 units, however the products are grouped.
 */
export function raisedScaled(power: bigint, factor: bigint, times: number, scale: bigint): bigint {
  let p = power
  let base = factor
  for (let k = times; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) p = p * base / scale
    if (k > 1) base = base * base / scale
  }
  return p
}

/** x (0 < x ≤ 1, from binary floating point) scaled by 10^digits: a starting guess for floorRoot, never a result. */
export function scaledGuess(x: number, digits: number): bigint {
  const fifteen = BigInt(Math.round(x * 1e15))
  return digits >= 15 ? fifteen * 10n ** BigInt(digits - 15) + 1n : fifteen / 10n ** BigInt(15 - digits) + 1n
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))

/** The exact b-th root of n when n is a perfect b-th power, else undefined. */
function exactRoot(n: bigint, b: bigint): bigint | undefined {
  const r = floorRoot(n, b, BigInt(Math.ceil(Math.pow(Number(n), 1 / Number(b)))) + 1n)
  return r ** b === n ? r : undefined
}

/** Digits of the fixed point, first and then (for a value too close to half a centavo to tell) more. */
const COMPOUND_DIGITS = [40, 120, 400]

/**
 * composta_30's deságio of a line, VF · (1 − (1 + i)^(−n/30)), to the centavo, half up: answers a function of
 * (VF, n) for the rate `taxaMensal`. With g = gcd(n, 30), (1 + i)^(−n/30) is ((1 + i)^(−1/b))^a for a = n/g and
 * b = 30/g; it is rational exactly when the reduced fraction 1 + i = P/Q has integer b-th roots, and then it is
 * computed as a fraction. Otherwise it is irrational, never exactly half a centavo from an integer, and fixed point
 * decides: the day's factor ⌊10^d · (Q/P)^(1/30)⌋ (an exact integer root), raised to n, is off by under 2n units,
 * so VF times it is off by under 2n·VF units; when both ends of that interval round to the same centavo, that is
 * the answer, and otherwise the same is asked with more digits.
 */
export function compoundDesagio(taxaMensal: string): (vf: bigint, n: number) => bigint {
  const i = decimalFraction(taxaMensal)
  const common = gcd(i.den + i.num, i.den)
  const P = (i.den + i.num) / common
  const Q = i.den / common
  const dayFactors = new Map<number, bigint>()
  const dayFactor = (digits: number): bigint => {
    let f = dayFactors.get(digits)
    if (f === undefined) {
      const scale = 10n ** BigInt(digits)
      dayFactors.set(digits, f = floorRoot(scale ** 30n * Q / P, 30n, scaledGuess(Math.pow(Number(Q) / Number(P), 1 / 30), digits)))
    }
    return f
  }
  const rational = new Map<number, { num: bigint, den: bigint } | null>()
  const exactDiscount = (n: number) => {
    let found = rational.get(n)
    if (found === undefined) {
      const g = gcd(BigInt(n), 30n)
      const a = BigInt(n) / g
      const b = 30n / g
      const rootP = exactRoot(P, b)
      const rootQ = rootP === undefined ? undefined : exactRoot(Q, b)
      rational.set(n, found = rootP !== undefined && rootQ !== undefined ? { num: rootQ ** a, den: rootP ** a } : null)
    }
    return found
  }
  const powers = new Map<string, bigint>()
  return (vf, n) => {
    if (n < 0 || !Number.isSafeInteger(n)) throw new RangeError('a day count of a line is a whole number, not negative')
    if (n === 0) return 0n
    const exact = exactDiscount(n)
    if (exact) return roundHalfUp(vf * (exact.den - exact.num), exact.den)
    for (const digits of COMPOUND_DIGITS) {
      const scale = 10n ** BigInt(digits)
      const key = `${digits}:${n}`
      let power = powers.get(key)
      if (power === undefined) powers.set(key, power = raisedScaled(scale, dayFactor(digits), n, scale))
      const x = vf * (scale - power)
      const error = vf * (2n * BigInt(n) + 1n)
      const low = roundHalfUp(x - error, scale)
      if (low === roundHalfUp(x + error, scale)) return low
    }
    throw new RangeError(`composta_30 cannot tell a line of ${vf} centavos over ${n} days from half a centavo at ${COMPOUND_DIGITS.at(-1)} digits`)
  }
}
