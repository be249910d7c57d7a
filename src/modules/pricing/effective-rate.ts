// The effective monthly rate of a borderô: the r that solves Σ VF / (1 + r)^(n/30) = net amount (produto.md §2.6),
// in decimal arithmetic. Newton's method kept inside a bracket that always holds the root, so it cannot diverge.
import { dec, Dec } from './decimal.ts'

export type Flow = { valor: bigint, dias: number }

/** Enough for six decimal places with margin; each step is one exp per distinct day count. */
const TOLERANCE = new Dec('1e-15')
const MAX_STEPS = 200

export function effectiveMonthlyRate(flows: readonly Flow[], netCentavos: bigint): Dec | null {
  if (netCentavos <= 0n || flows.length === 0) return null
  // Títulos with the same day count discount together: a thousand títulos are a few dozen terms.
  const byDays = new Map<number, Dec>()
  for (const f of flows) byDays.set(f.dias, (byDays.get(f.dias) ?? dec(0)).plus(dec(f.valor)))
  const terms = [...byDays].map(([dias, valor]) => ({ t: dec(dias).dividedBy(30), valor }))
  const net = dec(netCentavos)

  // f(r) = Σ valor · (1+r)^(−t) − net falls as r grows (every t ≥ 0 and some valor > 0).
  const f = (r: Dec): { value: Dec, slope: Dec } => {
    const lnBase = r.plus(1).ln()
    let value = net.negated()
    let slope = dec(0)
    for (const { t, valor } of terms) {
      const discounted = valor.times(lnBase.times(t).negated().exp())
      value = value.plus(discounted)
      slope = slope.minus(discounted.times(t).dividedBy(r.plus(1)))
    }
    return { value, slope }
  }

  let lo = dec(0)
  if (f(lo).value.lte(0)) return dec(0) // nothing was discounted (or net exceeds the face values)
  let hi = dec(1)
  while (f(hi).value.gt(0)) {
    hi = hi.times(2)
    if (hi.gt(1e6)) return null // not a rate any operation has
  }
  let r = dec('0.03')
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
