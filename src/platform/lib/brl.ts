// Money and days as a Brazilian reader reads them on a document (a borderô, a statement): "R$ 1.234,56" from
// integer centavos (no float on the way), "05/10/2026" from a `YYYY-MM-DD` day.

export function brl(centavos: bigint | number): string {
  const value = BigInt(centavos)
  const abs = value < 0n ? -value : value
  const reais = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  const cents = (abs % 100n).toString().padStart(2, '0')
  return `${value < 0n ? '−' : ''}R$ ${reais},${cents}`
}

export const dataBr = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`
