// Amounts typed in reais, as a Brazilian back office types them ("1.234,56", "1234,56", "1234.56", "1234"),
// read to integer centavos from the digits themselves: no float on the way, no rounding (a third decimal is refused).

const WITH_THOUSANDS = /^(\d{1,3}(?:\.\d{3})+)(?:,(\d{1,2}))?$/
const COMMA_DECIMAL = /^(\d+)(?:,(\d{1,2}))?$/
const POINT_DECIMAL = /^(\d+)\.(\d{1,2})$/

/** Centavos of `typed` in reais; undefined when it is not an amount, or is above 2^53 − 1 centavos. */
export function centavosOf(typed: string): number | undefined {
  const text = typed.replace(/^\s*R\$\s*/, '').trim()
  const m = WITH_THOUSANDS.exec(text) ?? COMMA_DECIMAL.exec(text) ?? POINT_DECIMAL.exec(text)
  if (!m) return undefined
  const centavos = BigInt(m[1]!.replaceAll('.', '')) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'))
  return centavos <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(centavos) : undefined
}

