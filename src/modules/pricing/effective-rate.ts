// The effective monthly rate of a borderô: the r that solves Σ VF / (1 + r)^(n/30) = net amount (produto.md §2.6),
// in decimal arithmetic. Newton's method kept inside a bracket that always holds the root, so it cannot diverge.
// Binary floating point only guesses where to look: a guess whose bracket the decimal evaluation confirms saves
// most of the decimal steps (each an ln and an exp at fifty digits); any other falls back to the whole search.
import { Dec as Exact } from './decimal.ts'

// Thirty significant digits: an answer to fifteen places with margin, where the amounts' exact fifty would make
// each step's ln and exp cost several times as much. The answer is handed back in the product's own type.
const Dec = Exact.clone({ precision: 30 })
type Dec = InstanceType<typeof Dec>
const dec = (x: bigint | number | string): Dec => new Dec(typeof x === 'bigint' ? x.toString() : x)

export type Flow = { valor: bigint, dias: number }

/** Enough for six decimal places with margin. */
const TOLERANCE = new Dec('1e-15')
const MAX_STEPS = 200
/** A million a month: beyond it no rate is given (the search's last bracket ends exactly there). */
const MAX_RATE = 1e6

export function effectiveMonthlyRate(flows: readonly Flow[], netCentavos: bigint): Exact | null {
  const r = solve(flows, netCentavos)
  return r === null ? null : new Exact(r.toString())
}

function solve(flows: readonly Flow[], netCentavos: bigint): Dec | null {
  if (netCentavos <= 0n || flows.length === 0) return null
  // Títulos with the same day count discount together: a thousand títulos are at most a few hundred terms.
  const byDays = new Map<number, Dec>()
  for (const f of flows) byDays.set(f.dias, (byDays.get(f.dias) ?? dec(0)).plus(dec(f.valor)))
  const terms = [...byDays].sort(([a], [b]) => a - b).map(([dias, valor]) => ({ dias, t: dec(dias).dividedBy(30), valor }))
  const net = dec(netCentavos)

  // f(r) = Σ valor · (1+r)^(−t) − net falls as r grows (every t ≥ 0 and some valor > 0). Each term's discount is
  // a whole power of one day's, (1+r)^(−1/30): one exp a step and, through the days in order, a few
  // multiplications a term, where an exp per term at fifty digits made a quote of a hundred títulos cost a
  // tenth of a second of CPU.
  const f = (r: Dec): { value: Dec, slope: Dec } => {
    const perDay = r.plus(1).ln().dividedBy(30).negated().exp()
    let value = net.negated()
    let slope = dec(0)
    let power = dec(1)
    let at = 0
    for (const { dias, t, valor } of terms) {
      power = power.times(perDay.pow(dias - at))
      at = dias
      const discounted = valor.times(power)
      value = value.plus(discounted)
      slope = slope.minus(discounted.times(t).dividedBy(r.plus(1)))
    }
    return { value, slope }
  }

  let lo = dec(0)
  if (f(lo).value.lte(0)) return dec(0) // nothing was discounted (or net exceeds the face values)
  let hi: Dec
  let r: Dec
  const guess = floatGuess(terms.map((x) => ({ dias: x.dias, valor: x.valor.toNumber() })), net.toNumber())
  const near = guess === undefined ? undefined : { lo: dec(guess * (1 - 1e-9)), hi: dec(guess * (1 + 1e-9) + 1e-12) }
  if (near && f(near.lo).value.gt(0) && f(near.hi).value.lt(0)) {
    ({ lo, hi } = near)
    r = dec(guess!)
  } else {
    hi = dec(1)
    while (f(hi).value.gt(0)) {
      if (hi.gte(MAX_RATE)) return null // not a rate any operation has
      hi = Dec.min(hi.times(2), MAX_RATE)
    }
    r = dec('0.03')
  }
  for (let step = 0; step < MAX_STEPS; step++) {
    const { value, slope } = f(r)
    if (value.isZero()) return r
    if (value.gt(0)) lo = r
    else hi = r
    let next = slope.isZero() ? lo.plus(hi).dividedBy(2) : r.minus(value.dividedBy(slope))
    if (next.lte(lo) || next.gte(hi)) next = lo.plus(hi).dividedBy(2)
    if (next.minus(r).abs().lt(TOLERANCE)) return next
    r = next
  }
  return r
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
    if (hi >= MAX_RATE) return undefined
    hi = Math.min(hi * 2, MAX_RATE)
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
