// Posting an entry: one `lancamentos` row and its lines, in the caller's transaction, so the entry commits with
// the change that made it or not at all. The database checks at commit that it balances and that each line has
// one side (migration 0020); the check here only stops a bug earlier, with the entry's numbers in the message.
import type { Orm } from '../../platform/db/database.ts'
import type { Conta } from './accounts.ts'
import { isCheckViolationOf } from '../../platform/db/driver-errors.ts'
import { LedgerTotalError } from './errors.ts'
import { lancamentoLinhas, lancamentos } from './tables.ts'
import type { Origem } from './origins.ts'

export type EntryLine = { conta: Conta, cedenteId?: string | null, debito?: bigint, credito?: bigint }

export type NewEntry = {
  clienteId: string
  data: string
  historico: string
  origem: { tipo: Origem, id: string }
  requestId: string | null
  linhas: readonly EntryLine[]
}

export async function postEntry(tx: Orm, e: NewEntry, now: Date): Promise<string> {
  const lines = e.linhas.filter((l) => (l.debito ?? 0n) > 0n || (l.credito ?? 0n) > 0n)
  const debits = lines.reduce((s, l) => s + (l.debito ?? 0n), 0n)
  const credits = lines.reduce((s, l) => s + (l.credito ?? 0n), 0n)
  if (debits !== credits) throw new Error(`unbalanced ledger entry (${e.historico}): debits ${debits}, credits ${credits}`)
  const [made] = await tx.insert(lancamentos).values({
    clienteId: e.clienteId, data: e.data, historico: e.historico, origemTipo: e.origem.tipo, origemId: e.origem.id, requestId: e.requestId, criadoEm: now,
  }).returning({ id: lancamentos.id, seq: lancamentos.seq })
  try {
    await tx.insert(lancamentoLinhas).values(lines.map((l) => ({
      clienteId: e.clienteId, lancamentoId: made!.id, data: e.data, lancamentoSeq: made!.seq, conta: l.conta, cedenteId: l.cedenteId ?? null,
      debitoCentavos: l.debito ?? 0n, creditoCentavos: l.credito ?? 0n,
    })))
  } catch (err) {
    // The customer's ledger would hold more than a served total can say exactly (migration 0030).
    if (isCheckViolationOf(err, 'razao_totais_seguro')) throw new LedgerTotalError(debits)
    throw err
  }
  return made!.id
}

/** The exact reverse of an entry's lines: every debit a credit and every credit a debit. */
export function reversed(linhas: readonly EntryLine[]): EntryLine[] {
  return linhas.map((l) => ({ conta: l.conta, cedenteId: l.cedenteId ?? null, debito: l.credito ?? 0n, credito: l.debito ?? 0n }))
}
