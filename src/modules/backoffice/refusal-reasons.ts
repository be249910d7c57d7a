// Why the API refused a field, in the words a person reads beside it (issue 32, item 9): each 422 item's `type`,
// with its `ctx` (a length, a bound), and the domain checks' `value_error` messages, which name the rule broken
// ("due after the operation's date (2026-10-05)"), put in Portuguese with dates as dd/mm/aaaa. What no rule here
// knows is still answered, as "valor inválido": a new check of the API reads badly, never breaks the page.
import { Decimal } from 'decimal.js'
import { brl, dataBr } from '../../platform/lib/brl.ts'

export type RefusedItem = { loc?: unknown[], type?: string, msg?: string, ctx?: Record<string, unknown> }

/** A refused field's expected form, by its key: what a pattern item means for it. */
const FORMATS: Record<string, string> = {
  banco: 'o código do banco tem 3 dígitos (COMPE), como 341',
  agencia: 'a agência tem de 1 a 5 dígitos, sem o dígito',
  conta: 'a conta tem de 1 a 13 dígitos, sem o dígito',
  digito: 'o dígito é 1 ou 2 algarismos, ou X',
  municipio_ibge: 'o código IBGE do município tem 7 dígitos',
  uf: 'a UF tem duas letras, como SP',
  chave_nfe: 'a chave da NF-e tem 44 dígitos',
  termo_sha256: 'o SHA-256 tem 64 caracteres hexadecimais',
  sha256: 'o SHA-256 tem 64 caracteres hexadecimais',
  id_transacao: 'de 1 a 100 letras, dígitos ou sinais, sem espaços',
  id_externo: 'de 1 a 64 letras, dígitos ou sinais, sem espaços',
  documento: 'só dígitos, letras e a pontuação do CPF ou do CNPJ',
  taxa_mensal: 'um percentual acima de 0 e abaixo de 100',
  taxa_ad_valorem: 'um percentual de 0 a menos de 100',
}

const day = (iso: string | undefined) => (iso ? dataBr(iso) : '')

/** The domain checks' messages (after "Value error, "), each as a pattern and its Portuguese. */
const VALUE_ERRORS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/check digits do not match/, () => 'dígito verificador inválido'],
  [/a CPF has 11 digits/, () => 'um CPF tem 11 dígitos; um CNPJ, 12 letras ou dígitos e 2 dígitos verificadores'],
  [/not a valid CPF or CNPJ/, () => 'CPF ou CNPJ inválido'],
  [/control, line-break and bidi characters/, () => 'sem quebras de linha nem caracteres de controle'],
  [/profile is a company's and needs a CNPJ/, () => 'este perfil é de empresa e pede um CNPJ, mas o documento é um CPF'],
  [/the pf profile is a person's/, () => 'o perfil pessoa física pede um CPF, mas o documento é um CNPJ'],
  [/exempt (IOF profile|product) needs its reason/, () => 'o perfil isento pede o motivo da isenção'],
  [/only (the isento profile|iof isento) takes a reason/, () => 'só o perfil isento tem motivo de isenção'],
  [/pj_simples profile needs/, () => 'o perfil do Simples Nacional pede a declaração de optante'],
  [/only the pj_simples profile takes/, () => 'só o perfil do Simples Nacional tem declaração de optante'],
  [/declaration's day is after today \((\d{4}-\d{2}-\d{2})/, (m) => `depois de hoje (${day(m[1])})`],
  [/Simples Nacional began on (\d{4}-\d{2}-\d{2})/, (m) => `antes do início do Simples Nacional (${day(m[1])})`],
  [/account's holder must be the cedente/, () => 'a conta deve ser do próprio cedente'],
  [/this account is in the list already/, () => 'conta repetida'],
  [/^no such day/, () => 'esta data não existe'],
  [/the operation's date is today \((\d{4}-\d{2}-\d{2})\) or later/, (m) => `antes de hoje (${day(m[1])})`],
  [/at most (\d+) days ahead/, (m) => `no máximo ${m[1]} dias à frente`],
  [/emitted on or before the operation's date \((\d{4}-\d{2}-\d{2})\)/, (m) => `depois da data da operação (${day(m[1])})`],
  [/due after the operation's date \((\d{4}-\d{2}-\d{2})\)/, (m) => `antes da data da operação (${day(m[1])}) ou nela: o título vence depois dela`],
  [/due at most (\d+) days after/, (m) => `no máximo ${m[1]} dias depois da data da operação`],
  [/NF-e key's check digit/, () => 'dígito verificador da chave inválido'],
  [/no sacado of the customer's/, () => 'sacado não encontrado na empresa'],
  [/no cedente of the customer's/, () => 'cedente não encontrado na empresa'],
  [/no product of the customer's/, () => 'produto não encontrado na empresa'],
  [/id_externo is in the list already/, () => 'repetido na lista'],
  [/total face value passes/, () => 'o valor de face total passa do máximo que se pode somar exatamente'],
  [/not in the future and not before the approval/, () => 'não pode ser no futuro nem antes da aprovação'],
  [/not in the future/, () => 'não pode ser no futuro'],
  [/give municipio_ibge or uf, one of them/, () => 'informe o município ou a UF, um dos dois'],
  [/no state has this IBGE code/, () => 'nenhuma UF tem este código IBGE'],
  [/not one of the cedente's accounts/, () => 'não é uma conta do cedente'],
  [/several accounts: name one/, () => 'o cedente tem várias contas: escolha uma'],
  [/no bank account/, () => 'o cedente não tem conta bancária: cadastre uma antes'],
  [/no títulos to quote/, () => 'a operação não tem títulos para cotar'],
  [/ate must be on or after de/, () => 'o fim do período vem antes do início'],
  [/a day from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/, (m) => `uma data de ${day(m[1])} a ${day(m[2])}`],
]

const count = (n: unknown, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`

const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v)

/** A message the API wrote in Portuguese for a person (its accents, or its words), not an English validator's. */
const PORTUGUESE = /[ãõçáéíóúâêôà]|\b(?:dos|das|deve|pode)\b/i

/** A fraction a percentage field takes ("0.02"), told as the person types it: "2 %". */
const PERCENT_FIELDS = /percentual|taxa/

/** A limit as the person typed its field: centavos in reais, a day as dd/mm/aaaa, anything else as it is. */
const bound = (v: unknown, field: string): string => {
  if (field.endsWith('_centavos') && isWhole(v)) return brl(v)
  if (PERCENT_FIELDS.test(field) && (typeof v === 'string' || typeof v === 'number') && /^\d+(\.\d+)?$/.test(String(v))) {
    return `${new Decimal(String(v)).times(100).toFixed().replace('.', ',')} %`
  }
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return day(v)
  return String(v)
}

/** The reason for item `i`, refused on field `key` (the body's field, as the form names it). */
export function reasonOf(i: RefusedItem, key: string): string {
  const ctx = i.ctx ?? {}
  const last = key.split('.').at(-1) ?? key
  switch (i.type) {
    case 'missing': return 'obrigatório'
    case 'string_too_short': return ctx.min_length === 1 ? 'obrigatório' : `no mínimo ${count(ctx.min_length, 'caractere', 'caracteres')}`
    case 'string_too_long': return `no máximo ${count(ctx.max_length, 'caractere', 'caracteres')}`
    case 'string_pattern_mismatch': return FORMATS[last] ?? 'formato inválido'
    case 'enum': case 'literal_error': return 'escolha uma das opções'
    case 'extra_forbidden': return 'campo não aceito'
    case 'uuid_parsing': case 'uuid_type': return 'escolha uma das opções'
    case 'string_type': case 'int_type': case 'int_parsing': case 'dict_type': case 'list_type': return 'valor inválido'
    case 'greater_than_equal': return `no mínimo ${bound(ctx.ge, last)}`
    case 'greater_than': return last.endsWith('_centavos') && isWhole(ctx.gt) ? `no mínimo ${brl(Number(ctx.gt) + 1)}` : `mais de ${bound(ctx.gt, last)}`
    case 'less_than_equal': return `no máximo ${bound(ctx.le, last)}`
    case 'less_than': return last.endsWith('_centavos') && isWhole(ctx.lt) ? `no máximo ${brl(Number(ctx.lt) - 1)}` : `menos de ${bound(ctx.lt, last)}`
    case 'too_short': return `no mínimo ${count(ctx.min_length, 'item', 'itens')}`
    case 'too_long': return `no máximo ${count(ctx.max_length, 'item', 'itens')}`
    case 'value_error': {
      const msg = (i.msg ?? '').replace(/^Value error, /, '')
      if (msg.startsWith('value is not a valid email address')) return 'e-mail inválido'
      for (const [pattern, words] of VALUE_ERRORS) {
        const m = pattern.exec(msg)
        if (m) return words(m)
      }
      // The rules written in Portuguese (a bank's account check digit, a payment in the future) are told as written.
      return PORTUGUESE.test(msg) ? msg : 'valor inválido'
    }
  }
  if (i.type?.startsWith('datetime') || i.type === 'timezone_aware') return 'data e hora inválidas'
  if (i.type?.startsWith('date')) return 'data inválida'
  if (i.msg?.startsWith('value is not a valid email address')) return 'e-mail inválido'
  return 'valor inválido'
}
