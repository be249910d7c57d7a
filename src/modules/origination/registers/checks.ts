// What a register's fields must be beyond their JSON shapes (which the route's schema checks): a document with its
// check digits, names without control characters, an IOF profile that fits the party (with its exemption's reason
// or its Simples Nacional declaration), bank accounts held by the cedente itself. Every problem at once, as 422
// items in the contract's shape (FastAPI's), each naming its field.
import { nameProblem } from '../../../platform/lib/chosen-name.ts'
import type { ValidationItem } from '../../../platform/http/validation-errors.ts'
import { parseDocumento, type Documento, type TipoPessoa } from '../documento.ts'
import { PARTY_OF_PROFILE, SIMPLES_NACIONAL_DESDE, type DeclaracaoSimples, type PerfilIof } from './iof-profile.ts'
import type { ContaBancariaT } from './schemas.ts'

const item = (loc: (string | number)[], msg: string, input: unknown, type = 'value_error'): ValidationItem =>
  ({ type, loc: ['body', ...loc], msg, input })

/** The document as kept, or its 422 item. */
export function checkDocumento(input: string, loc: (string | number)[]): Documento | ValidationItem {
  const parsed = parseDocumento(input)
  if (parsed === 'formato') return item(loc, 'Value error, a CPF has 11 digits, a CNPJ 12 letters or digits and 2 check digits', input)
  if (parsed === 'digito_verificador') return item(loc, 'Value error, the check digits do not match', input)
  return parsed
}

/** Names a person reads (a razão social, a nome fantasia, a reason): no control, line-break or bidi characters. */
export function checkNames(values: Record<string, string | null | undefined>, max: number): ValidationItem[] {
  return Object.entries(values).flatMap(([field, value]) =>
    typeof value === 'string' && nameProblem(value, max) === 'controle'
      ? [item([field], 'Value error, control, line-break and bidi characters are not allowed', value)] : [])
}

/** `pj` and `pj_simples` are a company's rates, for a CNPJ; `pf` a person's, for a CPF (a CPF stored as `pj` was taxed as a company). */
export function checkProfileParty(perfil: PerfilIof, tipoPessoa: TipoPessoa): ValidationItem[] {
  const party = PARTY_OF_PROFILE[perfil]
  if (party === null || party === tipoPessoa) return []
  return [item(['perfil_iof'], party === 'pj'
    ? `Value error, the ${perfil} profile is a company's and needs a CNPJ: this cedente's documento is a CPF`
    : 'Value error, the pf profile is a person\'s and needs a CPF: this cedente\'s documento is a CNPJ', perfil)]
}

/** `isento` needs its reason (a code: the schema checks which), and only it takes one. */
export function checkExemption(perfil: PerfilIof, motivo: string | null | undefined): ValidationItem[] {
  if (perfil === 'isento' && !motivo) return [item(['motivo_isencao'], 'Value error, an exempt IOF profile needs its reason', motivo ?? null, 'missing')]
  if (perfil !== 'isento' && motivo) return [item(['motivo_isencao'], 'Value error, only the isento profile takes a reason', motivo)]
  return []
}

/**
 * `pj_simples` (a lower rate) needs the cedente's declaration that it is optante do Simples Nacional, and only it
 * takes one. `kept` is the declaration the cedente will have; `given`, the one the body brings, whose day is checked:
 * not after `today` (Brasília's), nor before the Simples Nacional began.
 */
export function checkSimplesDeclaration(
  perfil: PerfilIof, kept: DeclaracaoSimples | null | undefined, given: DeclaracaoSimples | null | undefined, today: string,
): ValidationItem[] {
  if (perfil === 'pj_simples' && !kept) {
    return [item(['declaracao_simples'], 'Value error, the pj_simples profile needs the cedente\'s Simples Nacional declaration', given ?? null, 'missing')]
  }
  if (perfil !== 'pj_simples' && given) {
    return [item(['declaracao_simples'], 'Value error, only the pj_simples profile takes a Simples Nacional declaration', given)]
  }
  if (given && given.data > today) {
    return [item(['declaracao_simples', 'data'], `Value error, the declaration's day is after today (${today}, Brasília)`, given.data)]
  }
  if (given && given.data < SIMPLES_NACIONAL_DESDE) {
    return [item(['declaracao_simples', 'data'], `Value error, the Simples Nacional began on ${SIMPLES_NACIONAL_DESDE}: no declaration is older`, given.data)]
  }
  return []
}

export type ContaKept = { banco: string, agencia: string, conta: string, digito: string, titularDocumento: string }

/** The accounts as kept (the holder's document bare, the digit upper-case), or the items of those not the cedente's. */
export function checkContas(contas: ContaBancariaT[], documento: string): { kept: ContaKept[], items: ValidationItem[] } {
  const items: ValidationItem[] = []
  const kept: ContaKept[] = []
  const seen = new Set<string>()
  contas.forEach((c, i) => {
    const holder = checkDocumento(c.titular_documento, ['contas_bancarias', i, 'titular_documento'])
    if ('loc' in holder) items.push(holder)
    else if (holder.documento !== documento) {
      items.push(item(['contas_bancarias', i, 'titular_documento'], 'Value error, the account\'s holder must be the cedente itself', c.titular_documento))
    }
    const key = [c.banco, c.agencia, c.conta, c.digito.toUpperCase()].join('/')
    if (seen.has(key)) items.push(item(['contas_bancarias', i], 'Value error, this account is in the list already', c))
    seen.add(key)
    kept.push({ banco: c.banco, agencia: c.agencia, conta: c.conta, digito: c.digito.toUpperCase(), titularDocumento: documento })
  })
  return { kept, items }
}
