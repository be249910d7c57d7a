// Formalization (produto.md §2.5): the signed assignment term, by its SHA-256, when it was signed and by whom.
import type { Orm } from '../../../platform/db/database.ts'
import { InvalidStateError } from '../errors.ts'
import { updateOperation, type Operation } from '../store.ts'
import type { Signatario } from '../tables.ts'

export async function formalize(tx: Orm, op: Operation, term: { sha256: string, assinadoEm: Date, signatarios: Signatario[] }, now: Date): Promise<void> {
  if (op.estado !== 'aceita') throw new InvalidStateError(op.estado)
  await updateOperation(tx, op.id, { estado: 'formalizada', termoSha256: term.sha256, assinadoEm: term.assinadoEm, signatarios: term.signatarios }, now)
}
