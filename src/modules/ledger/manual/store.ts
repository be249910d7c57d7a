// A manual entry's life, in the caller's tenant transaction: proposed, then confirmed by a second person (and
// posted, through the ledger's one posting code) or refused. Each decision locks the row and checks its state.
import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import type { Conta } from '../accounts.ts'
import { EntryConfirmerError, ManualEntryStateError } from '../errors.ts'
import { postEntry } from '../post.ts'
import { lancamentosManuais, type Estado, type ManualEntry, type ManualLine, type Motivo } from './tables.ts'

export type Proposal = { clienteId: string, data: string, historico: string, motivo: Motivo, justificativa: string, linhas: ManualLine[] }

export async function proposeEntry(tx: Orm, p: Proposal, usuarioId: string, now: Date): Promise<ManualEntry> {
  const [made] = await tx.insert(lancamentosManuais).values({ ...p, solicitanteUsuarioId: usuarioId, criadoEm: now, atualizadoEm: now }).returning()
  return made!
}

export async function lockEntry(tx: Orm, id: string): Promise<ManualEntry | undefined> {
  const [row] = await tx.select().from(lancamentosManuais).where(eq(lancamentosManuais.id, id)).for('update')
  return row
}

export async function getEntry(tx: Orm, id: string): Promise<ManualEntry | undefined> {
  const [row] = await tx.select().from(lancamentosManuais).where(eq(lancamentosManuais.id, id))
  return row
}

export async function listManualEntries(tx: Orm, estado: Estado | undefined, page: { limit: number, before?: number }) {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(lancamentosManuais.seq, page.before))
  if (estado) where.push(eq(lancamentosManuais.estado, estado))
  return pageFrom(await tx.select().from(lancamentosManuais).where(and(...where)).orderBy(desc(lancamentosManuais.seq)).limit(page.limit + 1), page.limit)
}

/** `usuarioId`: the confirming person (null: a token with no person, which cannot confirm). */
export async function confirmEntry(tx: Orm, m: ManualEntry, usuarioId: string | null, ctx: { now: Date, requestId: string | null }): Promise<ManualEntry> {
  if (usuarioId === null) throw new EntryConfirmerError('a token with no person cannot confirm a manual entry')
  if (usuarioId === m.solicitanteUsuarioId) throw new EntryConfirmerError('the person who proposed a manual entry cannot confirm it')
  if (m.estado !== 'aguardando_confirmacao') throw new ManualEntryStateError(m.estado)
  const lancamentoId = await postEntry(tx, {
    clienteId: m.clienteId, data: m.data, historico: m.historico, origem: { tipo: 'lancamento_manual', id: m.id }, requestId: ctx.requestId,
    linhas: m.linhas.map((l) => ({ conta: l.conta as Conta, debito: BigInt(l.debito_centavos), credito: BigInt(l.credito_centavos) })),
  }, ctx.now)
  return setEntry(tx, m.id, { estado: 'confirmado', confirmadoPorUsuarioId: usuarioId, confirmadoEm: ctx.now, lancamentoId }, ctx.now)
}

export async function refuseEntry(tx: Orm, m: ManualEntry, usuarioId: string | null, motivo: string, now: Date): Promise<ManualEntry> {
  if (m.estado !== 'aguardando_confirmacao') throw new ManualEntryStateError(m.estado)
  return setEntry(tx, m.id, { estado: 'recusado', recusadoPorUsuarioId: usuarioId, recusadoEm: now, motivoRecusa: motivo }, now)
}

async function setEntry(tx: Orm, id: string, set: Partial<ManualEntry>, now: Date): Promise<ManualEntry> {
  const [row] = await tx.update(lancamentosManuais).set({ ...set, atualizadoEm: now }).where(eq(lancamentosManuais.id, id)).returning()
  return row!
}
