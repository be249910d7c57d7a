// The product's decimal type where a rate is shown or converted (a percentage typed in the back office, a rate in
// the borderô's text): rates are decimal strings, never binary floats (produto.md §1). The pricing itself computes
// on BigInt (exact.ts). Fifty significant digits hold any 12-place rate times a hundred exactly.
import { Decimal as DecimalJs } from 'decimal.js'

export const Dec = DecimalJs.clone({ precision: 50, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 })
export type Dec = InstanceType<typeof Dec>

export const dec = (x: bigint | number | string): Dec => new Dec(typeof x === 'bigint' ? x.toString() : x)

/** A rate or a ratio as the API writes it: fixed decimals, half up. */
export const fixed = (x: Dec, places: number): string => x.toDecimalPlaces(places, Dec.ROUND_HALF_UP).toFixed(places)

/** A numeric as the API writes a rate: its digits without trailing zeros ("0.035000000000" → "0.035", "0.000" → "0"). */
export const plainDecimal = (n: string): string => (n.includes('.') ? n.replace(/0+$/, '').replace(/\.$/, '') : n)
