// The remessas: what waits for an account's file (read under the account's lock, which every remessa of the account
// takes first, so two at once see each other's items), the account's next NSA taken, the file and what it carried
// stored, and the files read back. Each in the caller's tenant transaction.
import { and, asc, desc, eq, lt, notExists, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { clientes } from '../../../platform/db/schema.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import { titulos } from '../../operations/index.ts'
import { cedentes, sacados } from '../../origination/index.ts'
import { contasCobranca } from '../accounts/tables.ts'
import { cobrancas } from '../charges/tables.ts'
import { cobrancaInstrucoes } from '../instructions/tables.ts'
import { remessaItens, remessas } from './tables.ts'

export type Remessa = typeof remessas.$inferSelect
export type RemessaItem = typeof remessaItens.$inferSelect

/** What the file says of a charge: the charge, its título, its sacado (with the address) and its cedente. */
const chargeColumns = {
  c: cobrancas,
  titulo: { numero: titulos.numero, tipo: titulos.tipo, emissao: titulos.emissao },
  sacado: {
    documento: sacados.documento, nome: sacados.razaoSocial, logradouro: sacados.logradouro, numero: sacados.numero, complemento: sacados.complemento,
    bairro: sacados.bairro, cep: sacados.cep, cidade: sacados.cidade, uf: sacados.uf,
  },
  cedente: { documento: cedentes.documento, nome: cedentes.razaoSocial },
}

const inNoRemessa = (column: SQL | typeof cobrancas.id | typeof cobrancaInstrucoes.id, which: 'cobranca' | 'instrucao') =>
  notExists(sql`(SELECT 1 FROM remessa_itens ri WHERE ri.${sql.raw(which === 'cobranca' ? 'cobranca_id' : 'instrucao_id')} = ${column})`)

/** The account's charges waiting for registration and in no file yet, oldest first, at most `limit`. */
export async function pendingCharges(tx: Orm, contaId: string, limit: number) {
  return tx.select(chargeColumns).from(cobrancas)
    .innerJoin(titulos, eq(titulos.id, cobrancas.tituloId))
    .innerJoin(sacados, eq(sacados.id, titulos.sacadoId))
    .innerJoin(cedentes, eq(cedentes.id, titulos.cedenteId))
    // A título bought back, settled or cancelled meanwhile is no one's to charge (the buy-back writes such charges off).
    .where(and(eq(cobrancas.contaCobrancaId, contaId), eq(cobrancas.estado, 'a_registrar'), eq(titulos.estado, 'adquirido'),
      inNoRemessa(cobrancas.id, 'cobranca')))
    .orderBy(asc(cobrancas.seq)).limit(limit)
}

export type PendingCharge = Awaited<ReturnType<typeof pendingCharges>>[number]

/** The account's file instructions waiting and in no file yet, in the order asked, with their charges. */
export async function pendingInstructions(tx: Orm, contaId: string, limit: number) {
  return tx.select({ ...chargeColumns, i: cobrancaInstrucoes }).from(cobrancaInstrucoes)
    .innerJoin(cobrancas, eq(cobrancas.id, cobrancaInstrucoes.cobrancaId))
    .innerJoin(titulos, eq(titulos.id, cobrancas.tituloId))
    .innerJoin(sacados, eq(sacados.id, titulos.sacadoId))
    .innerJoin(cedentes, eq(cedentes.id, titulos.cedenteId))
    .where(and(eq(cobrancas.contaCobrancaId, contaId), eq(cobrancaInstrucoes.transporte, 'cnab'), eq(cobrancaInstrucoes.estado, 'pendente'),
      inNoRemessa(cobrancaInstrucoes.id, 'instrucao')))
    .orderBy(asc(cobrancaInstrucoes.seq)).limit(limit)
}

export type PendingInstruction = Awaited<ReturnType<typeof pendingInstructions>>[number]

/** The customer as the file's header names it. */
export async function customerOf(tx: Orm, clienteId: string): Promise<{ nome: string, documento: string | null }> {
  const [row] = await tx.select({ nome: clientes.nome, documento: clientes.documento }).from(clientes).where(eq(clientes.id, clienteId))
  return row!
}

/** The account's next remessa sequence, taken: it only goes up (the caller holds the account's row locked). */
export async function takeNsa(tx: Orm, contaId: string): Promise<number> {
  const [row] = await tx.update(contasCobranca).set({ proximaRemessa: sql`${contasCobranca.proximaRemessa} + 1` })
    .where(eq(contasCobranca.id, contaId)).returning({ proxima: contasCobranca.proximaRemessa })
  return row!.proxima - 1
}

export type NewRemessa = Omit<typeof remessas.$inferInsert, 'id' | 'seq'>

/** The file, what it carried (in its order), and the instructions it carried marked `enviada`. */
export async function storeRemessa(
  tx: Orm, r: NewRemessa, carried: readonly { cobrancaId: string | null, instrucaoId: string | null }[],
): Promise<{ remessa: Remessa, itens: RemessaItem[] }> {
  const [remessa] = await tx.insert(remessas).values(r).returning()
  const itens = await tx.insert(remessaItens).values(carried.map((it, i) => ({
    clienteId: r.clienteId, remessaId: remessa!.id, ordem: i + 1, cobrancaId: it.cobrancaId, instrucaoId: it.instrucaoId,
  }))).returning()
  const sent = carried.flatMap((it) => (it.instrucaoId ? [it.instrucaoId] : []))
  if (sent.length) {
    await tx.update(cobrancaInstrucoes).set({ estado: 'enviada', atualizadoEm: r.criadoEm })
      .where(and(sql`${cobrancaInstrucoes.id} = ANY(${sql.param(sent)}::uuid[])`, eq(cobrancaInstrucoes.estado, 'pendente')))
  }
  return { remessa: remessa!, itens }
}

export async function getRemessa(tx: Orm, id: string): Promise<Remessa | undefined> {
  const [row] = await tx.select().from(remessas).where(eq(remessas.id, id))
  return row
}

/** What a remessa carried, in its order, each with its charge's nosso número and what it asked. */
export async function itemsOf(tx: Orm, remessaId: string) {
  return tx.select({ ordem: remessaItens.ordem, cobrancaId: cobrancas.id, instrucaoId: remessaItens.instrucaoId,
    nossoNumero: cobrancas.nossoNumeroImpresso, instrucao: cobrancaInstrucoes.instrucao }).from(remessaItens)
    .leftJoin(cobrancaInstrucoes, eq(cobrancaInstrucoes.id, remessaItens.instrucaoId))
    .innerJoin(cobrancas, sql`${cobrancas.id} = coalesce(${remessaItens.cobrancaId}, ${cobrancaInstrucoes.cobrancaId})`)
    .where(eq(remessaItens.remessaId, remessaId)).orderBy(asc(remessaItens.ordem))
}

/** A page of the customer's remessas, newest first (the files' text is not read). */
export async function listRemessas(tx: Orm, filter: { contaCobrancaId?: string }, page: { limit: number, before?: number }) {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(remessas.seq, page.before))
  if (filter.contaCobrancaId !== undefined) where.push(eq(remessas.contaCobrancaId, filter.contaCobrancaId))
  const rows = await tx.select(SUMMARY).from(remessas).where(and(...where)).orderBy(desc(remessas.seq)).limit(page.limit + 1)
  return pageFrom(rows, page.limit)
}

/** A remessa without its file's text. */
const SUMMARY = {
  id: remessas.id, seq: remessas.seq, contaCobrancaId: remessas.contaCobrancaId, nsa: remessas.nsa, layout: remessas.layout,
  nomeArquivo: remessas.nomeArquivo, sha256: remessas.sha256, registros: remessas.registros, cobrancas: remessas.cobrancas,
  instrucoes: remessas.instrucoes, valorCentavos: remessas.valorCentavos, criadoEm: remessas.criadoEm,
}

export type RemessaSummary = Pick<Remessa, keyof typeof SUMMARY>
