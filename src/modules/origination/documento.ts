// CPF and CNPJ (`documento`), the alphanumeric CNPJ of IN RFB 2.229/2024 included. Accepted with or without
// punctuation, kept bare and upper-case; the check digits as the Receita defines them (produto.md §1).

export type TipoPessoa = 'pf' | 'pj'

export type Documento = { documento: string, tipoPessoa: TipoPessoa }

/** Why a documento is refused; the 422 item's `type` is built from it. */
export type DocumentoProblem = 'formato' | 'digito_verificador'

const CPF = /^[0-9]{11}$/
const CNPJ = /^[0-9A-Z]{12}[0-9]{2}$/
// Punctuation people write: dots, slashes, hyphens and spaces between groups.
const PUNCTUATION = /[.\-/ ]/g

/** A character's value in the check-digit sums: its ASCII code minus 48, so '0'…'9' are 0…9 and 'A' is 17. */
const value = (ch: string): number => ch.charCodeAt(0) - 48

function checkDigit(body: string, weights: readonly number[]): number {
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += value(body[i]!) * weights[i]!
  const r = sum % 11
  return r < 2 ? 0 : 11 - r
}

const CNPJ_DV1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const
const CNPJ_DV2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const
const CPF_DV1 = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const
const CPF_DV2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const

function digitsMatch(bare: string, dv1: readonly number[], dv2: readonly number[]): boolean {
  const n = dv1.length
  return checkDigit(bare, dv1) === value(bare[n]!) && checkDigit(bare, dv2) === value(bare[n + 1]!)
}

/**
 * The documento as kept, or why it is refused. A CPF whose eleven digits are all the same passes the arithmetic
 * but is no one's (the Receita never issues them), and likewise a CNPJ of fourteen zeros: both are refused.
 */
export function parseDocumento(input: string): Documento | DocumentoProblem {
  const bare = input.replace(PUNCTUATION, '').toUpperCase()
  if (CPF.test(bare)) {
    if (/^(\d)\1{10}$/.test(bare)) return 'digito_verificador'
    return digitsMatch(bare, CPF_DV1, CPF_DV2) ? { documento: bare, tipoPessoa: 'pf' } : 'digito_verificador'
  }
  if (CNPJ.test(bare)) {
    if (/^0{14}$/.test(bare)) return 'digito_verificador'
    return digitsMatch(bare, CNPJ_DV1, CNPJ_DV2) ? { documento: bare, tipoPessoa: 'pj' } : 'digito_verificador'
  }
  return 'formato'
}

/** The CNPJ's root (its first eight characters): the company, whatever its branch. Groups in concentration reports. */
export const raizCnpj = (cnpj: string): string => cnpj.slice(0, 8)
