// Exact arithmetic on integers for the lines whose every factor is a decimal: a face value in centavos times a rate
// of at most twelve places (times whole days) is a fraction with a power of ten (times 30) below it, rounded once,
// half up. BigInt holds it without a digit lost and without a library's objects; decimal.js stays where a power
// with a fractional exponent (composta_30) or a logarithm (the effective rate) makes the value irrational.

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
