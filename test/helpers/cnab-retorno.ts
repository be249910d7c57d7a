// Reading a CNAB retorno in a test as the service reads it: the text in Latin-1 chunks through linhasDe, every título
// the reader yields and the summary it returns, or the line and reason of its refusal.
import assert from 'node:assert/strict'
import { ArquivoRecusado } from '../../src/modules/collections/cnab/linhas.ts'

/** The text as the byte chunks a request body would bring (one per string given). */
export async function* chunksDe(text: string | string[]): AsyncGenerator<Buffer> {
  for (const c of Array.isArray(text) ? text : [text]) yield Buffer.from(c, 'latin1')
}

/** Everything a reader yields, and what it returns. */
export async function lerTudo<T, R>(gen: AsyncGenerator<T, R>): Promise<{ titulos: T[], resumo: R }> {
  const titulos: T[] = []
  for (;;) {
    const next = await gen.next()
    if (next.done) return { titulos, resumo: next.value }
    titulos.push(next.value)
  }
}

/** The refusal of a read: its line and reason; a file accepted fails the test. */
export async function recusa(read: () => Promise<unknown>): Promise<{ linha: number, motivo: string }> {
  try {
    await read()
  } catch (err) {
    if (err instanceof ArquivoRecusado) return { linha: err.linha, motivo: err.motivo }
    throw err
  }
  assert.fail('the file was accepted')
}
