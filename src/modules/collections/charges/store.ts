// The customer's charges: made, read, listed a page at a time, and registered by the bank's adapter. Each in the
// caller's tenant transaction (row-level security: another customer's charge, título or account is not found). What
// two charges may not share (a nosso número under an account, a título while live) is the database's to find (its
// unique constraint and partial unique index, race-free), answered with the id of the charge that holds it.
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { digitsOf, holds } from '../../../platform/db/list-sql.ts'
import { clientes } from '../../../platform/db/schema.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import { titulos } from '../../operations/index.ts'
import { cedentes, sacados } from '../../origination/index.ts'
import { contasCobranca } from '../accounts/tables.ts'
import { NossoNumeroExhaustedError, NossoNumeroInUseError, TitleChargedError } from './errors.ts'
import { cobrancas, ESTADOS_VIVOS, type EstadoCobranca } from './tables.ts'

export type Charge = typeof cobrancas.$inferSelect
export type NewCharge = Omit<typeof cobrancas.$inferInsert, 'id' | 'seq' | 'numero' | 'estado' | 'pixCopiaECola' | 'pixLocation' | 'bancoResposta'>

/** What a charge is made of in the título: read locked, so that a cancellation or a receipt waits for the charge. */
export type TitleToCharge = {
  id: string, estado: string, saldoCentavos: number, vencimento: string, sacadoDocumento: string,
}

export async function lockTitle(tx: Orm, id: string): Promise<TitleToCharge | undefined> {
  const [row] = await tx.select({
    id: titulos.id, estado: titulos.estado, saldoCentavos: titulos.saldoCentavos, vencimento: titulos.vencimento, sacadoDocumento: sacados.documento,
  }).from(titulos).innerJoin(sacados, eq(sacados.id, titulos.sacadoId)).where(eq(titulos.id, id)).for('update', { of: titulos })
  return row && { ...row, saldoCentavos: Number(row.saldoCentavos) }
}

/** Whether a nosso número was given under the account already (to any charge, whatever became of it). */
export async function holderOf(tx: Orm, contaId: string, nossoNumero: string): Promise<string | undefined> {
  const [row] = await tx.select({ id: cobrancas.id }).from(cobrancas)
    .where(and(eq(cobrancas.contaCobrancaId, contaId), eq(cobrancas.nossoNumero, nossoNumero)))
  return row?.id
}

/**
 * The account's next nosso número, taken: the sequence as it is, past any number the customer chose for itself
 * since, and the sequence advanced beyond it (UPDATE … RETURNING on the account's row, which the caller holds locked).
 */
export async function takeNossoNumero(tx: Orm, contaId: string, proximo: number, maximo: number): Promise<string> {
  let n = proximo
  while (await holderOf(tx, contaId, String(n)) !== undefined) n++
  // The next number is kept within the bank's digits (migration 0035's CHECK): past them the account's sequence is spent.
  if (n >= maximo) throw new NossoNumeroExhaustedError(contaId)
  const [row] = await tx.update(contasCobranca).set({ proximoNossoNumero: n + 1 }).where(eq(contasCobranca.id, contaId))
    .returning({ proximo: contasCobranca.proximoNossoNumero })
  return String(row!.proximo - 1)
}

/** A charge made (state a_registrar). A nosso número in use or a live charge of the título is refused by its holder's id. */
export async function createCharge(tx: Orm, input: NewCharge): Promise<Charge> {
  try {
    // A savepoint: a duplicate's failure leaves the caller's transaction usable to find the row that holds it.
    const [row] = await tx.transaction(async (sp) => sp.insert(cobrancas).values({ ...input, estado: 'a_registrar' }).returning())
    return row!
  } catch (err) {
    if (isUniqueViolation(err, 'cobrancas_nosso_numero_unico')) {
      throw new NossoNumeroInUseError((await holderOf(tx, input.contaCobrancaId, input.nossoNumero))!)
    }
    if (isUniqueViolation(err, 'cobrancas_titulo_viva')) throw new TitleChargedError((await liveChargeOf(tx, input.tituloId))!)
    throw err
  }
}

/** The título's live charge (to be registered, or registered), if it has one. */
export async function liveChargeOf(tx: Orm, tituloId: string): Promise<string | undefined> {
  const [row] = await tx.select({ id: cobrancas.id }).from(cobrancas)
    .where(and(eq(cobrancas.tituloId, tituloId), inArray(cobrancas.estado, [...ESTADOS_VIVOS])))
  return row?.id
}

export async function getCharge(tx: Orm, id: string): Promise<(Charge & { banco: string }) | undefined> {
  const [row] = await tx.select({ c: cobrancas, banco: contasCobranca.banco }).from(cobrancas)
    .innerJoin(contasCobranca, eq(contasCobranca.id, cobrancas.contaCobrancaId)).where(eq(cobrancas.id, id))
  return row && { ...row.c, banco: row.banco }
}

export type ChargeFilter = { estado?: EstadoCobranca, contaCobrancaId?: string, tituloId?: string, busca?: string }

/** A charge as its list names it: with its título's number and its sacado, so a page needs no read per row. */
export type ListedCharge = Charge & { banco: string, tituloNumero: string, sacado: { id: string, razaoSocial: string } }

/** A page of the customer's charges, newest first. */
export async function listCharges(
  tx: Orm, filter: ChargeFilter, page: { limit: number, before?: number },
): Promise<{ items: ListedCharge[], next: number | null }> {
  const where: SQL[] = []
  if (page.before !== undefined) where.push(lt(cobrancas.seq, page.before))
  if (filter.estado !== undefined) where.push(eq(cobrancas.estado, filter.estado))
  if (filter.contaCobrancaId !== undefined) where.push(eq(cobrancas.contaCobrancaId, filter.contaCobrancaId))
  if (filter.tituloId !== undefined) where.push(eq(cobrancas.tituloId, filter.tituloId))
  if (filter.busca !== undefined) {
    // A nosso número as the bank's statement prints it (with its carteira, dots or check digit), or its sequence; a
    // título's number; the sacado's name or document.
    const digits = digitsOf(filter.busca)
    // Only a number (with the dots, bars and dashes a bank prints) is read as a nosso número's sequence: "T2" is a título.
    const sequencia = /^[0-9./\- ]+$/.test(filter.busca) ? digits.replace(/^0+/, '') : ''
    const doc = digits.length >= 3 ? sql` OR ${sacados.documento} LIKE ${`%${digits}%`}` : sql``
    where.push(sql`(${holds(cobrancas.nossoNumeroImpresso, filter.busca)}${sequencia ? sql` OR ${cobrancas.nossoNumero} = ${sequencia}` : sql``}
      OR ${holds(titulos.numero, filter.busca)} OR ${holds(sacados.razaoSocial, filter.busca)}${doc})`)
  }
  const rows = await tx.select({
    c: cobrancas, banco: contasCobranca.banco, tituloNumero: titulos.numero, sacado: { id: sacados.id, razaoSocial: sacados.razaoSocial },
  }).from(cobrancas)
    .innerJoin(contasCobranca, eq(contasCobranca.id, cobrancas.contaCobrancaId))
    .innerJoin(titulos, eq(titulos.id, cobrancas.tituloId)).innerJoin(sacados, eq(sacados.id, titulos.sacadoId))
    .where(and(...where)).orderBy(desc(cobrancas.seq)).limit(page.limit + 1)
  return pageFrom(rows.map((r) => ({ ...r.c, banco: r.banco, tituloNumero: r.tituloNumero, sacado: r.sacado })), page.limit)
}

/** What the bank answered when it registered the charge: the cobv's BR Code and location, and its whole answer kept. */
export type Registration = { pixCopiaECola: string | null, pixLocation: string | null, bancoResposta: Record<string, unknown>, now: Date }

/**
 * The seam for the bank's adapter (the next step of issue 33): a charge to be registered becomes `registrada` with
 * what the bank answered, or `rejeitada` with it. Conditional on the state, so two adapters racing register it once:
 * undefined when the charge was not waiting for registration.
 */
export async function recordRegistration(tx: Orm, id: string, result: 'registrada' | 'rejeitada', r: Registration): Promise<Charge | undefined> {
  const [row] = await tx.update(cobrancas).set({
    estado: result, pixCopiaECola: result === 'registrada' ? r.pixCopiaECola : null, pixLocation: result === 'registrada' ? r.pixLocation : null,
    bancoResposta: r.bancoResposta, atualizadoEm: r.now,
  }).where(and(eq(cobrancas.id, id), eq(cobrancas.estado, 'a_registrar'))).returning()
  return row
}

/** Everything the printed boleto says, read in one statement: the charge, its título, sacado and cedente, the account and the customer. */
export async function boletoRows(tx: Orm, id: string) {
  const [row] = await tx.select({
    c: cobrancas,
    titulo: { numero: titulos.numero, tipo: titulos.tipo, emissao: titulos.emissao, estado: titulos.estado },
    sacado: {
      id: sacados.id, nome: sacados.razaoSocial, documento: sacados.documento, email: sacados.email, logradouro: sacados.logradouro, numero: sacados.numero,
      complemento: sacados.complemento, bairro: sacados.bairro, cep: sacados.cep, cidade: sacados.cidade, uf: sacados.uf,
    },
    cedente: { nome: cedentes.razaoSocial, documento: cedentes.documento },
    conta: {
      banco: contasCobranca.banco, agencia: contasCobranca.agencia, agenciaDigito: contasCobranca.agenciaDigito, conta: contasCobranca.conta,
      contaDigito: contasCobranca.contaDigito, carteira: contasCobranca.carteira, convenio: contasCobranca.convenio,
    },
    cliente: { nome: clientes.nome, documento: clientes.documento },
  }).from(cobrancas)
    .innerJoin(titulos, eq(titulos.id, cobrancas.tituloId))
    .innerJoin(sacados, eq(sacados.id, titulos.sacadoId))
    .innerJoin(cedentes, eq(cedentes.id, titulos.cedenteId))
    .innerJoin(contasCobranca, eq(contasCobranca.id, cobrancas.contaCobrancaId))
    .innerJoin(clientes, eq(clientes.id, cobrancas.clienteId))
    .where(eq(cobrancas.id, id))
  return row
}

export type BoletoRows = NonNullable<Awaited<ReturnType<typeof boletoRows>>>

