// A retorno's upload (issue 33): the bank's file read line by line, each título's occurrence stored as a pending
// line as it is read, in the upload's transaction: a file that breaks its layout, or whose trailers do not match
// what was read, throws at the line that shows it, and the transaction takes every line stored before it back with
// it. Nothing is applied here (apply.ts does, after the commit).
import { randomUUID } from 'node:crypto'
import type { Orm } from '../../../platform/db/database.ts'
import type { CollectionAccount } from '../accounts/store.ts'
import { lerRetorno240, type ResumoRetorno, type TituloRetornado } from '../cnab/retorno240.ts'
import { lerRetorno400 } from '../cnab/retorno400.ts'
import { isBanco400 } from '../cnab/remessa400.ts'
import { ArquivoRecusado, linhasDe } from '../cnab/linhas.ts'
import { RetornoRecusadoError } from './errors.ts'
import type { Spooled } from './spool.ts'
import { insertLines, insertRetorno } from './store.ts'

/** Lines stored a statement: the slice's arrays stay well under a megabyte. */
const SLICE = 1000

/** Stores the file's lines as pending (or throws RetornoRecusadoError, naming the line): the new retorno's id and summary. */
export async function storeRetorno(tx: Orm, conta: CollectionAccount, clienteId: string, file: Spooled, now: Date) {
  const layout = conta.layoutCnab
  const lines = linhasDe(file.read())
  let read: AsyncGenerator<TituloRetornado, ResumoRetorno>
  if (layout === '400') {
    if (!isBanco400(conta.banco)) throw new RetornoRecusadoError(1, `o banco ${conta.banco} não tem layout CNAB 400 neste serviço`)
    read = lerRetorno400(conta.banco, lines)
  } else {
    read = lerRetorno240(conta.banco, lines)
  }
  const id = randomUUID()
  let slice: TituloRetornado[] = []
  let resumo: ResumoRetorno
  try {
    for (;;) {
      const next = await read.next()
      if (next.done) {
        resumo = next.value
        break
      }
      slice.push(next.value)
      if (slice.length === SLICE) {
        await insertLines(tx, clienteId, id, conta.id, slice)
        slice = []
      }
    }
  } catch (err) {
    if (err instanceof ArquivoRecusado) throw new RetornoRecusadoError(err.linha, err.motivo)
    throw err
  }
  await insertLines(tx, clienteId, id, conta.id, slice)
  await insertRetorno(tx, id, { clienteId, contaCobrancaId: conta.id, sha256: file.sha256, layout, bytes: file.bytes }, resumo, now)
  return { id, titulos: resumo.titulos }
}
