// CNAB files as data (issue 33: "layouts are declarative data per bank and version, not code per field"): a record
// is a list of fields, each with its positions (1-based, inclusive, as the manuals print them), its picture and,
// where the manual fixes it, its content. One writer and one reader serve every record of every bank; a layout is
// checked to cover its line exactly (no gap, no overlap), which the tests run over every layout.
//
// Pictures, as the manuals write them: `9` digits, right-aligned and zero-filled; `X` text, left-aligned and
// blank-filled; `V2` digits with two implied decimals (9(13)V99), here always centavos.
import { dayNumber } from '../../calendar/index.ts'

export type Picture = '9' | 'X' | 'V2'

export interface Campo {
  nome: string
  de: number
  ate: number
  tipo: Picture
  /** What the manual fixes the field to ('P', '0001', blanks…): written whatever the values say, checked when read. */
  fixo?: string
}

export interface Registro {
  nome: string
  tamanho: 240 | 400
  /** The manual, its version and page: where a reader checks each position. */
  fonte: string
  campos: readonly Campo[]
}

/** A field: name, from, to, picture and, optionally, its fixed content. */
export const c = (nome: string, de: number, ate: number, tipo: Picture, fixo?: string): Campo =>
  ({ nome, de, ate, tipo, ...(fixo === undefined ? {} : { fixo }) })

/** Blanks the manual reserves ("Uso exclusivo FEBRABAN/CNAB", "brancos"): one name for all of them, never a value. */
export const brancos = (de: number, ate: number): Campo => ({ nome: '', de, ate, tipo: 'X', fixo: ' '.repeat(ate - de + 1) })

/** What is wrong with a layout: gaps, overlaps, fields past the line, fixed contents of the wrong width, names twice. */
export function conferirLayout(r: Registro): string[] {
  const problems: string[] = []
  let next = 1
  const names = new Set<string>()
  for (const f of r.campos) {
    const where = `${r.nome}.${f.nome || 'brancos'} (${f.de}-${f.ate})`
    if (f.de !== next) problems.push(`${where}: starts at ${f.de}, the previous field ended at ${next - 1}`)
    if (f.ate < f.de) problems.push(`${where}: ends before it starts`)
    if (f.fixo !== undefined && f.fixo.length !== f.ate - f.de + 1) problems.push(`${where}: fixed content of ${f.fixo.length} characters`)
    if (f.fixo !== undefined && f.tipo !== 'X' && !/^[0-9]+$/.test(f.fixo)) problems.push(`${where}: a numeric field fixed to non-digits`)
    if (f.nome) {
      if (names.has(f.nome)) problems.push(`${where}: the name is used twice`)
      names.add(f.nome)
    }
    next = f.ate + 1
  }
  if (next !== r.tamanho + 1) problems.push(`${r.nome}: the fields end at ${next - 1}, the line has ${r.tamanho}`)
  return problems
}

export type Valor = string | number | bigint | undefined

// CNAB text is ASCII: accents go (the manuals ask for letters without them), and anything else unprintable is a blank.
const asciiText = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, ' ')

/** A field's content for a value: digits padded, text cut to the field (a name of 50 in a field of 40 keeps 40). */
function conteudo(f: Campo, v: Valor, registro: string): string {
  const width = f.ate - f.de + 1
  if (f.fixo !== undefined) return f.fixo
  if (f.tipo === 'X') return asciiText(v === undefined ? '' : String(v)).slice(0, width).padEnd(width, ' ')
  const digits = v === undefined ? '' : typeof v === 'string' ? v : v.toString()
  if (!/^[0-9]*$/.test(digits)) throw new RangeError(`${registro}.${f.nome}: ${JSON.stringify(digits)} is not a non-negative whole number`)
  if (digits.length > width) throw new RangeError(`${registro}.${f.nome}: ${digits} does not fit ${width} digits`)
  return digits.padStart(width, '0')
}

/** One line of the record (without its line end). */
export function escrever(r: Registro, valores: Readonly<Record<string, Valor>>): string {
  for (const name of Object.keys(valores)) {
    if (!r.campos.some((f) => f.nome === name)) throw new RangeError(`${r.nome} has no field ${name}`)
  }
  return r.campos.map((f) => conteudo(f, f.nome ? valores[f.nome] : undefined, r.nome)).join('')
}

export type Lido = { ok: true, campos: Record<string, string> } | { ok: false, motivo: string }

/**
 * A line read into its fields, each as the raw characters the file holds (written back, they give the same line).
 * Refused: a line of another length, a fixed field that holds something else, digits where digits belong that are not.
 */
export function ler(r: Registro, linha: string): Lido {
  if (linha.length !== r.tamanho) return { ok: false, motivo: `a linha tem ${linha.length} posições; o registro ${r.nome} tem ${r.tamanho}` }
  const campos: Record<string, string> = {}
  for (const f of r.campos) {
    const raw = linha.slice(f.de - 1, f.ate)
    if (f.fixo !== undefined && raw !== f.fixo && f.nome) {
      return { ok: false, motivo: `${f.nome} (posições ${f.de}-${f.ate}) deveria ser ${JSON.stringify(f.fixo)} e é ${JSON.stringify(raw)}` }
    }
    if (f.tipo !== 'X' && !/^[0-9]+$/.test(raw) && raw.trim() !== '') {
      return { ok: false, motivo: `${f.nome} (posições ${f.de}-${f.ate}) deveria ter só dígitos e tem ${JSON.stringify(raw)}` }
    }
    if (f.nome) campos[f.nome] = raw
  }
  return { ok: true, campos }
}

/** A CNAB day (DDMMAAAA, or DDMMAA in the 400 layouts) as YYYY-MM-DD; zeros, blanks and days no calendar has (31022026) are no day. */
export function diaCnab(raw: string): string | undefined {
  const s = raw.trim()
  if (s === '' || /^0+$/.test(s)) return undefined
  const day = s.length === 6 ? `20${s.slice(4, 6)}-${s.slice(2, 4)}-${s.slice(0, 2)}`
    : s.length === 8 ? `${s.slice(4, 8)}-${s.slice(2, 4)}-${s.slice(0, 2)}` : ''
  return dayNumber(day) === undefined ? undefined : day
}

/** A YYYY-MM-DD day as the CNAB writes it: DDMMAAAA, or DDMMAA for the 400 layouts. */
export const cnabDia = (day: string, digits: 6 | 8 = 8): string =>
  `${day.slice(8, 10)}${day.slice(5, 7)}${digits === 8 ? day.slice(0, 4) : day.slice(2, 4)}`

/** Centavos from a V2 field (blanks are 0). */
export const centavosCnab = (raw: string): bigint => (raw.trim() === '' ? 0n : BigInt(raw))
