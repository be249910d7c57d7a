// A CNAB file's lines as they arrive (a request body, a file), never the whole file in memory: bytes are Latin-1
// (one byte, one position: a bank's file is ASCII, and an accent a bank slipped in must not shift the columns), lines
// end in LF or CR LF, a last empty line is no line. A line longer than any layout is refused as soon as it passes
// the bound, so a file without line ends cannot fill the memory.

export const LINHA_MAXIMA = 400

export class ArquivoRecusado extends Error {
  readonly linha: number
  readonly motivo: string
  constructor(linha: number, motivo: string) {
    super(`linha ${linha}: ${motivo}`)
    this.linha = linha
    this.motivo = motivo
  }
}

/** The lines of `chunks`, numbered from 1. */
export async function* linhasDe(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<{ numero: number, texto: string }> {
  let pending = ''
  let numero = 0
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1')
    let at = pending.indexOf('\n')
    while (at >= 0) {
      numero++
      yield { numero, texto: conferida(numero, semCr(pending.slice(0, at))) }
      pending = pending.slice(at + 1)
      at = pending.indexOf('\n')
    }
    if (pending.length > LINHA_MAXIMA + 1) throw new ArquivoRecusado(numero + 1, `linha com mais de ${LINHA_MAXIMA} posições`)
  }
  if (pending !== '' && pending !== '\r') yield { numero: numero + 1, texto: conferida(numero + 1, semCr(pending)) }
}

/** A line with a control character (a lone CR of a mixed file, a NUL, a tab) is refused where it is, not read as a blank. */
function conferida(numero: number, texto: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  const at = texto.search(/[\x00-\x1f\x7f]/)
  if (at >= 0) throw new ArquivoRecusado(numero, `caractere de controle (código ${texto.charCodeAt(at)}) na posição ${at + 1}`)
  return texto
}

const semCr = (s: string) => (s.endsWith('\r') ? s.slice(0, -1) : s)
