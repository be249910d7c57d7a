// The check digits of FEBRABAN's boleto (produto.md §3) and the banks' nosso número: módulo 10 and módulo 11 over
// a string of decimal digits, weighted from the right. What each caller does with a remainder differs (the barcode's
// general digit turns 0, 10 and 11 into 1; Bradesco's nosso número writes 10 as "P"), so these return the raw
// remainder or sum and the callers state their own rule where it is used.

const ZERO = 48

/** The digits of `s` as numbers, refusing anything else: a check digit over a non-digit would be a silent lie. */
function digitsOf(s: string): number[] {
  const out: number[] = []
  for (let i = 0; i < s.length; i++) {
    const d = s.charCodeAt(i) - ZERO
    if (d < 0 || d > 9) throw new RangeError(`not a decimal digit at ${i}: ${JSON.stringify(s[i])}`)
    out.push(d)
  }
  return out
}

/**
 * Módulo 10 (the linha digitável's fields, Itaú's and Caixa's nosso número): weights 2, 1, 2, 1… from the right,
 * each product's digits summed (14 counts 1 + 4), and the digit 10 − (sum mod 10), 10 written 0.
 */
export function mod10(s: string): number {
  const d = digitsOf(s)
  let sum = 0
  let weight = 2
  for (let i = d.length - 1; i >= 0; i--) {
    const p = d[i]! * weight
    sum += p > 9 ? p - 9 : p
    weight = weight === 2 ? 1 : 2
  }
  const r = sum % 10
  return r === 0 ? 0 : 10 - r
}

/**
 * The weighted sum of módulo 11 with weights 2…`maxWeight` from the right, cycling (9 for FEBRABAN's barcode and
 * most nossos números; 7 for Bradesco's). The caller takes `% 11` and applies its bank's rule to the remainder.
 */
export function mod11Sum(s: string, maxWeight = 9): number {
  const d = digitsOf(s)
  let sum = 0
  let weight = 2
  for (let i = d.length - 1; i >= 0; i--) {
    sum += d[i]! * weight
    weight = weight === maxWeight ? 2 : weight + 1
  }
  return sum
}

/** Only decimal digits, `length` of them. */
export const isDigits = (s: string, length?: number): boolean => /^[0-9]+$/.test(s) && (length === undefined || s.length === length)

/** `n` (a non-negative integer or a digit string) left-padded with zeros to `width`, refusing what does not fit. */
export function zeroPad(n: number | bigint | string, width: number): string {
  const s = typeof n === 'string' ? n : n.toString()
  if (!isDigits(s) || s.length > width) throw new RangeError(`${JSON.stringify(s)} does not fit ${width} digits`)
  return s.padStart(width, '0')
}
