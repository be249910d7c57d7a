// The CNPJ, Brazil's company registry number: 12 characters then 2 check digits, each a weighted sum modulo 11.
// From July 2026 the Receita Federal issues alphanumeric ones (capital letters among the first 12, valued by their
// ASCII code minus 48, the check digits unchanged), so both are accepted. Punctuation (12.345.678/0001-95) is dropped.

const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const SECOND_WEIGHTS = [6, ...FIRST_WEIGHTS]

/** The CNPJ as stored (14 characters, no punctuation), or undefined when it is not one. */
export function normalizeCnpj(input: string): string | undefined {
  const compact = input.trim().toUpperCase().replace(/[./-]/g, '')
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(compact)) return undefined
  // Fourteen equal digits pass the arithmetic but are no company's.
  if (/^(\d)\1{13}$/.test(compact)) return undefined
  const values = [...compact].map((c) => c.charCodeAt(0) - 48)
  const first = checkDigit(values.slice(0, 12), FIRST_WEIGHTS)
  const second = checkDigit([...values.slice(0, 12), first], SECOND_WEIGHTS)
  return values[12] === first && values[13] === second ? compact : undefined
}

function checkDigit(values: number[], weights: number[]): number {
  const rest = values.reduce((sum, v, i) => sum + v * weights[i]!, 0) % 11
  return rest < 2 ? 0 : 11 - rest
}
