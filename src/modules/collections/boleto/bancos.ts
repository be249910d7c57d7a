// Each bank's 25-digit campo livre and its nosso número with check digit (produto.md §3: the banks define these
// positions; FEBRABAN only the 19 before them). One entry per bank, each citing the manual its positions come
// from; the tests hold them to the manuals' own examples.
import { isDigits, mod10, mod11Sum, zeroPad } from './modulos.ts'

export const BANCOS = ['001', '033', '104', '237', '341'] as const
export type Banco = (typeof BANCOS)[number]

export const isBanco = (s: unknown): s is Banco => (BANCOS as readonly unknown[]).includes(s)

/** What a collection account tells a boleto about its beneficiary, as the bank's contract names it. */
export interface Beneficiario {
  agencia: string
  conta: string
  contaDigito: string
  carteira: string
  /** The bank's own code for the beneficiary (Banco do Brasil's convênio, Santander's and Caixa's código do beneficiário). */
  convenio?: string
}

export interface NossoNumero {
  /** The digits the barcode carries (without the check digit where the bank puts none there). */
  numero: string
  /** As printed on the boleto, with the bank's separators and check digit. */
  impresso: string
}

export interface RegrasDoBanco {
  nome: string
  /** How many digits of sequence the customer's nosso número may have. */
  digitosDoNossoNumero: number
  /** What the account must carry for this bank, checked when it is registered: a reason for each field it lacks. */
  conferir(b: Beneficiario): Partial<Record<keyof Beneficiario, string>>
  nossoNumero(b: Beneficiario, sequencia: string): NossoNumero
  campoLivre(b: Beneficiario, sequencia: string): string
}

/** Módulo 11 with weights 2–9 where the remainders 0 and 1 give 0, and the others 11 − r (Santander's, Caixa's "> 9 → 0"). */
const mod11ZeroAbove9 = (s: string, maxWeight = 9): number => {
  const dv = 11 - (mod11Sum(s, maxWeight) % 11)
  return dv > 9 ? 0 : dv
}

const need = (cond: boolean, field: string, why: string) => (cond ? {} : { [field]: why })

// Banco do Brasil, "Especificações técnicas para confecção de boleto de pagamento do Banco do Brasil" (convênio
// de 7 posições): nosso número = convênio (7) + sequence (10), 17 digits and no check digit; campo livre = six zeros,
// the nosso número and the carteira (2). Convênios of 4 and 6 digits are older contracts this service does not take.
const BB: RegrasDoBanco = {
  nome: 'Banco do Brasil',
  digitosDoNossoNumero: 10,
  conferir: (b) => ({
    ...need(isDigits(b.convenio ?? '', 7), 'convenio', 'o convênio do Banco do Brasil tem 7 dígitos'),
    ...need(isDigits(b.carteira, 2), 'carteira', 'a carteira do Banco do Brasil tem 2 dígitos'),
  }),
  nossoNumero: (b, seq) => {
    const n = `${b.convenio}${zeroPad(seq, 10)}`
    return { numero: n, impresso: n }
  },
  campoLivre: (b, seq) => `000000${b.convenio}${zeroPad(seq, 10)}${b.carteira}`,
}

// Santander, "Layout de cobrança — código de barras" (carteiras 101, 102, 201): 9, the código do beneficiário (7),
// the nosso número (12) and its check digit (módulo 11, weights 2–9; remainders 0 and 1 give 0, 10 gives 1), the
// IOS (0 for a beneficiary that is not an insurer) and the carteira (3).
const dvSantander = (n: string): number => {
  const r = mod11Sum(n) % 11
  return r === 0 || r === 1 ? 0 : r === 10 ? 1 : 11 - r
}
const SANTANDER: RegrasDoBanco = {
  nome: 'Santander',
  digitosDoNossoNumero: 12,
  conferir: (b) => ({
    ...need(isDigits(b.convenio ?? '', 7), 'convenio', 'o código do beneficiário do Santander tem 7 dígitos'),
    ...need(isDigits(b.carteira, 3), 'carteira', 'a carteira do Santander tem 3 dígitos (101, 102 ou 201)'),
  }),
  nossoNumero: (_b, seq) => {
    const n = zeroPad(seq, 12)
    return { numero: `${n}${dvSantander(n)}`, impresso: `${n}-${dvSantander(n)}` }
  },
  campoLivre: (b, seq) => {
    const n = zeroPad(seq, 12)
    return `9${b.convenio}${n}${dvSantander(n)}0${b.carteira}`
  },
}

// Caixa, "Especificações do código de barras — SIGCB": the código do beneficiário (6) and its check digit, the
// nosso número's 17 digits (1 registered, 4 issued by the beneficiary, then 15 of sequence) spread as 3 + 1 + 3 + 1
// + 9, and the campo livre's own check digit (módulo 11, weights 2–9, 11 − r, above 9 written 0).
const CAIXA: RegrasDoBanco = {
  nome: 'Caixa Econômica Federal',
  digitosDoNossoNumero: 15,
  conferir: (b) => ({ ...need(isDigits(b.convenio ?? '', 6), 'convenio', 'o código do beneficiário da Caixa tem 6 dígitos') }),
  nossoNumero: (_b, seq) => {
    const n = `14${zeroPad(seq, 15)}`
    return { numero: n, impresso: `${n}-${mod11ZeroAbove9(n)}` }
  },
  campoLivre: (b, seq) => {
    const n = `14${zeroPad(seq, 15)}`
    const cod = b.convenio!
    const semDv = `${cod}${mod11ZeroAbove9(cod)}${n.slice(2, 5)}${n[0]}${n.slice(5, 8)}${n[1]}${n.slice(8, 17)}`
    return `${semDv}${mod11ZeroAbove9(semDv)}`
  },
}

// Bradesco, "Boleto de cobrança — layout do código de barras": agência (4), carteira (2), nosso número (11), conta
// (7) and a zero. The nosso número's check digit is módulo 11 over carteira + nosso número with weights 2–7:
// remainder 0 gives 0, remainder 1 gives P, and the others 11 − r.
const dvBradesco = (carteira: string, n: string): string => {
  const r = mod11Sum(`${carteira}${n}`, 7) % 11
  return r === 0 ? '0' : r === 1 ? 'P' : String(11 - r)
}
const BRADESCO: RegrasDoBanco = {
  nome: 'Bradesco',
  digitosDoNossoNumero: 11,
  conferir: (b) => ({
    ...need(isDigits(b.agencia, 4), 'agencia', 'a agência do Bradesco tem 4 dígitos'),
    ...need(isDigits(b.conta) && b.conta.length <= 7, 'conta', 'a conta do Bradesco tem até 7 dígitos'),
    ...need(isDigits(b.carteira, 2), 'carteira', 'a carteira do Bradesco tem 2 dígitos'),
  }),
  nossoNumero: (b, seq) => {
    const n = zeroPad(seq, 11)
    return { numero: n, impresso: `${b.carteira}/${n}-${dvBradesco(b.carteira, n)}` }
  },
  campoLivre: (b, seq) => `${b.agencia}${b.carteira}${zeroPad(seq, 11)}${zeroPad(b.conta, 7)}0`,
}

// Itaú, "Cobrança bancária — layout do código de barras" (CNAB 400 and boleto manual): carteira (3), nosso número
// (8), its DAC (módulo 10 over agência, conta, carteira and nosso número; for carteiras 126, 131, 146, 150 and 168
// over carteira and nosso número only), agência (4), conta (5), the account's DAC (módulo 10 over agência and
// conta) and 000.
const CARTEIRAS_ITAU_SEM_CONTA = new Set(['126', '131', '146', '150', '168'])
// The special carteiras put the seu número and the customer's code in the campo livre instead of agência and conta:
// a barcode of this layout would be wrong for them, so an account under one is refused rather than charged wrongly.
export const CARTEIRAS_ITAU_ESPECIAIS = new Set(['106', '107', '122', '142', '143', '195', '196', '198'])
const dacItau = (b: Beneficiario, n: string): number =>
  mod10(CARTEIRAS_ITAU_SEM_CONTA.has(b.carteira) ? `${b.carteira}${n}` : `${b.agencia}${b.conta}${b.carteira}${n}`)
const ITAU: RegrasDoBanco = {
  nome: 'Itaú Unibanco',
  digitosDoNossoNumero: 8,
  conferir: (b) => ({
    ...need(isDigits(b.agencia, 4), 'agencia', 'a agência do Itaú tem 4 dígitos'),
    ...need(isDigits(b.conta, 5), 'conta', 'a conta do Itaú tem 5 dígitos'),
    ...need(isDigits(b.carteira, 3), 'carteira', 'a carteira do Itaú tem 3 dígitos'),
    ...need(!CARTEIRAS_ITAU_ESPECIAIS.has(b.carteira), 'carteira', 'as carteiras especiais do Itaú (106, 107, 122, 142, 143, 195, 196 e 198) levam '
      + 'o seu número e o código do cliente no código de barras: a plataforma não as emite'),
    ...need(isDigits(b.agencia, 4) && isDigits(b.conta, 5) && String(mod10(`${b.agencia}${b.conta}`)) === b.contaDigito, 'contaDigito',
      'o dígito da conta do Itaú é o módulo 10 de agência e conta'),
  }),
  nossoNumero: (b, seq) => {
    const n = zeroPad(seq, 8)
    return { numero: n, impresso: `${b.carteira}/${n}-${dacItau(b, n)}` }
  },
  campoLivre: (b, seq) => {
    const n = zeroPad(seq, 8)
    return `${b.carteira}${n}${dacItau(b, n)}${b.agencia}${b.conta}${mod10(`${b.agencia}${b.conta}`)}000`
  },
}

export const REGRAS: Record<Banco, RegrasDoBanco> = { '001': BB, '033': SANTANDER, '104': CAIXA, '237': BRADESCO, '341': ITAU }
