// What both retorno readers (240 and 400) hold a título's line to before the service stores it: a day a calendar has
// (blank or zeros: no day), an occurrence code of the banks' shape, and the account's sequence inside a nosso número
// (none when it is zeros: no charge has sequence 0). A line that breaks one refuses the whole file, naming the line:
// the red team of issue 33 found a day read as none (the 400) and a zero nosso número refused by the database with no
// line named.
import { diaCnab } from './layout.ts'
import { ArquivoRecusado } from './linhas.ts'

/** A day field: undefined when zeros or blanks, refused (naming the line and field) when no calendar has it. */
export function diaDaLinha(linha: number, campo: string, raw: string): string | undefined {
  const d = diaCnab(raw)
  if (d === undefined && raw.trim() !== '' && !/^0+$/.test(raw.trim())) throw new ArquivoRecusado(linha, `${campo} ${JSON.stringify(raw)} não é uma data`)
  return d
}

/**
 * The day of the occurrence, which every bank writes: a line without it refuses the file. The day is part of what
 * makes an occurrence once (a red team of issue 33 applied one payment twice, dated and then with zeros).
 */
export function dataDaOcorrencia(linha: number, raw: string): string {
  const d = diaDaLinha(linha, 'data da ocorrência', raw)
  if (d === undefined) throw new ArquivoRecusado(linha, 'data da ocorrência em branco: toda ocorrência do banco tem a sua data')
  return d
}

/** The bank's occurrence code: two digits or capitals, as every table of the banks has them. */
export function codigoDaLinha(linha: number, raw: string): string {
  if (!/^[0-9A-Z]{2}$/.test(raw)) throw new ArquivoRecusado(linha, `código de ocorrência ${JSON.stringify(raw)} inválido: são dois dígitos`)
  return raw
}

/** Digits without their leading zeros; '' for no digits, zeros alone, or anything else. */
export const sequenciaDe = (s: string): string => (/^[0-9]+$/.test(s) ? s.replace(/^0+/, '') : '')
