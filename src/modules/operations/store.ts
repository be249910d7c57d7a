// Operations and their títulos in the caller's tenant transaction (row-level security: another customer's rows
// are not found). A transition reads its operation FOR UPDATE first, so two at once run one after the other and
// the second finds the state the first left.
import { termInfo, type TermInfo } from './termo-store.ts'
import { and, asc, desc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../platform/db/database.ts'
import { readInTransaction, sendInTransaction, type Read } from '../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../platform/db/one-trip.ts'
import { columnsOf, rowDecoder } from '../../platform/db/table-rows.ts'
import { isUniqueViolation } from '../../platform/db/driver-errors.ts'
import { ExternalIdInUseError } from '../../platform/tenancy/external-id.ts'
import { DuplicateTitleError } from './errors.ts'
import { cotacoes, desembolsos, operacoes, titulos } from './tables.ts'

export type Operation = typeof operacoes.$inferSelect
export type Title = typeof titulos.$inferSelect
export type Quote = typeof cotacoes.$inferSelect
export type Payment = typeof desembolsos.$inferSelect
/**
 * An operation as its read answers it (issue 31 item 9): one page of títulos in the order they were added, the
 * totals of all of them, and the latest quote with the lines of that page only.
 */
export type OperationPage = Operation & {
  titulos: Title[], proximo: number | null, totais: { n: number, face: bigint }, cotacao: Quote | null, desembolso: Payment | null,
  /** The signed term's file, when one was sent (its bytes are read only to download it). */
  termo: TermInfo | null,
}
/** `after`: how many of the operation's títulos, in the order added, come before the page. */
export type TitlesPage = { limit: number, after?: number }

export type NewOperation = { clienteId: string, idExterno: string | null, cedenteId: string, produtoId: string, dataOperacao: string }

export async function createOperation(tx: Orm, input: NewOperation, now: Date): Promise<Operation> {
  try {
    return (await tx.transaction(async (sp) => sp.insert(operacoes).values({ ...input, criadoEm: now, atualizadoEm: now }).returning()))[0]!
  } catch (err) {
    if (input.idExterno === null || !isUniqueViolation(err, 'operacoes_id_externo_unico')) throw err
    const [held] = await tx.select({ id: operacoes.id }).from(operacoes).where(eq(operacoes.idExterno, input.idExterno))
    throw new ExternalIdInUseError(held!.id)
  }
}

/** The operation, locked for this transaction's change; undefined when the customer has none with this id. */
export async function lockOperation(tx: Orm, id: string): Promise<Operation | undefined> {
  const [found] = await readInTransaction(tx, [{ statement: LOCK_OPERATION({ id }), answer: (rows) => rows.map(decodeOperation)[0] }])
  return found
}

const decodeOperation = rowDecoder(operacoes)
const LOCK_OPERATION = fixedStatement<'id'>(sql`SELECT ${columnsOf(operacoes)} FROM ${operacoes} WHERE ${operacoes.id} = ${sql.placeholder('id')} FOR UPDATE`)

export async function updateOperation(tx: Orm, id: string, set: Partial<Operation>, now: Date): Promise<Operation> {
  const [row] = await tx.update(operacoes).set({ ...set, atualizadoEm: now }).where(eq(operacoes.id, id)).returning()
  return row!
}

/** The operation's row alone (no títulos, quote or payment). */
export async function getOperationRow(tx: Orm, id: string): Promise<Operation | undefined> {
  const [row] = await tx.select().from(operacoes).where(eq(operacoes.id, id))
  return row
}

/** The operation with a page of its títulos (see OperationPage); undefined when not the customer's. */
export async function readOperation(tx: Orm, id: string, page: TitlesPage): Promise<OperationPage | undefined> {
  const [row] = await tx.select().from(operacoes).where(eq(operacoes.id, id))
  if (!row) return undefined
  return pageOfParts(tx, row, page)
}

export async function pageOfParts(tx: Orm, op: Operation, page: TitlesPage): Promise<OperationPage> {
  // One after another: a transaction is one connection (see quoteOperation).
  // The cursor is a position within the operation, not the global sequence, which would show other customers' activity.
  const skip = page.after ?? 0
  const rows = await tx.select().from(titulos).where(eq(titulos.operacaoId, op.id)).orderBy(asc(titulos.seq)).offset(skip).limit(page.limit + 1)
  const list = rows.slice(0, page.limit)
  const totals = (await titleTotals(tx, [op.id])).get(op.id) ?? { n: 0, face: 0n }
  const quote = op.cotacaoVersao > 0 ? await quoteLinesOf(tx, op.id, op.cotacaoVersao, list.map((t) => t.id)) : undefined
  const payment = await latestPayment(tx, op.id)
  const term = op.estado === 'rascunho' || op.estado === 'cotada' ? undefined : await termInfo(tx, op.id)
  const proximo = rows.length > page.limit ? skip + list.length : null
  return { ...op, titulos: list, proximo, totais: totals, cotacao: quote ?? null, desembolso: payment ?? null, termo: term ?? null }
}

/** A quote with only the lines of these títulos, in the quote's order: the database filters, so a read never parses thousands of lines. */
async function quoteLinesOf(tx: Orm, operacaoId: string, versao: number, tituloIds: string[]): Promise<Quote | undefined> {
  const { calculo: _whole, ...columns } = getTableColumns(cotacoes)
  // json_each reads the top level only: no binary copy of the thousands of lines is built to drop them.
  const rest = sql<Record<string, unknown>>`(SELECT json_object_agg(k.key, k.value) FROM json_each(${cotacoes.calculo}) AS k WHERE k.key <> 'linhas')`
  const lines = sql<unknown[]>`COALESCE((SELECT json_agg(e.l ORDER BY e.i) FROM json_array_elements(${cotacoes.calculo} -> 'linhas') WITH ORDINALITY AS e(l, i)
    WHERE e.l ->> 'titulo_id' = ANY(${sql.param(tituloIds)}::text[])), '[]'::json)`
  const [row] = await tx.select({ ...columns, rest, lines }).from(cotacoes).where(and(eq(cotacoes.operacaoId, operacaoId), eq(cotacoes.versao, versao)))
  if (!row) return undefined
  const { rest: body, lines: linhas, ...quote } = row
  return { ...quote, calculo: { ...body, linhas } as Quote['calculo'] }
}

/** The customer's numbers of these operations ("Operação nº 12"): what a list names each row's operation by. */
export async function numbersOf(tx: Orm, ids: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map()
  const rows = await tx.select({ id: operacoes.id, numero: operacoes.numero }).from(operacoes).where(inArray(operacoes.id, unique))
  return new Map(rows.map((r) => [r.id, r.numero]))
}

/** Totals of an operation's títulos for a list: how many and their face value. */
export async function titleTotals(tx: Orm, ids: string[]): Promise<Map<string, { n: number, face: bigint }>> {
  if (!ids.length) return new Map()
  const rows = await tx.select({ id: titulos.operacaoId, n: sql<number>`count(*)::int`, face: sql<string>`sum(${titulos.valorFaceCentavos})` })
    .from(titulos).where(inArray(titulos.operacaoId, ids)).groupBy(titulos.operacaoId)
  return new Map(rows.map((r) => [r.id, { n: r.n, face: BigInt(r.face) }]))
}

const decodeTitle = rowDecoder(titulos)
const TITLES = fixedStatement<'operacao'>(sql`SELECT ${columnsOf(titulos)} FROM ${titulos}
  WHERE ${titulos.operacaoId} = ${sql.placeholder('operacao')} ORDER BY ${titulos.seq}`)

/** The operation's títulos in the order they were added, as a read of a transaction's round trip (a quote's). */
export const titlesRead = (operacaoId: string): Read<Title[]> => ({ statement: TITLES({ operacao: operacaoId }), answer: (rows) => rows.map(decodeTitle) })

/** The same read on its own, in the caller's transaction. */
/**
 * The operation's títulos locked (in id order), for a step that decides on their state: a confirmation or a registry
 * query of one of them (which locks it) then waits for the step, or the step for it, never deciding on a state that
 * changes under it.
 */
export async function lockTitles(tx: Orm, operacaoId: string): Promise<void> {
  await tx.execute(sql`SELECT id FROM titulos WHERE operacao_id = ${operacaoId}::uuid ORDER BY id FOR UPDATE`)
}

export const titlesOf = async (tx: Orm, operacaoId: string): Promise<Title[]> => (await readInTransaction(tx, [titlesRead(operacaoId)] as const))[0]

export type NewQuote = Omit<Quote, 'id' | 'criadoEm'>
/** A quote just stored, with its calculation's JSON text as it was written. */
export type SavedQuote = Quote & { calculoJson: string }

const decodeQuote = rowDecoder(cotacoes)
type QuoteKeys = 'cliente' | 'operacao' | 'versao' | 'produtoVersao' | 'validaAte' | 'face' | 'desagio' | 'adValorem' | 'tarifas' | 'tac' | 'iof'
  | 'liquido' | 'compensacoes' | 'calculo' | 'em'
const INSERT_QUOTE = fixedStatement<QuoteKeys>(sql`INSERT INTO ${cotacoes} (${sql.join([cotacoes.clienteId, cotacoes.operacaoId, cotacoes.versao,
  cotacoes.produtoVersao, cotacoes.validaAte, cotacoes.valorFaceCentavos, cotacoes.desagioCentavos, cotacoes.adValoremCentavos, cotacoes.tarifasCentavos,
  cotacoes.tacCentavos, cotacoes.iofCentavos, cotacoes.valorLiquidoCentavos, cotacoes.compensacoesCentavos, cotacoes.calculo, cotacoes.criadoEm]
    .map((c) => sql.identifier(c.name)), sql`, `)})
  VALUES (${sql.join((['cliente', 'operacao', 'versao', 'produtoVersao', 'validaAte', 'face', 'desagio', 'adValorem', 'tarifas', 'tac', 'iof', 'liquido',
    'compensacoes', 'calculo', 'em'] as const).map((k) => sql.placeholder(k)), sql`, `)})
  RETURNING ${columnsOf(cotacoes, ['calculo'])}`)
const MARK_QUOTED = fixedStatement<'id' | 'versao' | 'em'>(sql`UPDATE ${operacoes} SET ${sql.identifier(operacoes.estado.name)} = 'cotada',
  ${sql.identifier(operacoes.cotacaoVersao.name)} = ${sql.placeholder('versao')}, ${sql.identifier(operacoes.atualizadoEm.name)} = ${sql.placeholder('em')}
  WHERE ${operacoes.id} = ${sql.placeholder('id')}`)

/**
 * Stores the operation's next quote and marks the operation quoted with it, in one round trip. The calculation is
 * sent as JSON text once and answered from memory, not read back: it is the largest thing a quote moves.
 */
export async function saveQuote(tx: Orm, q: NewQuote, now: Date): Promise<SavedQuote> {
  const em = now.toISOString()
  const calculo = JSON.stringify(q.calculo)
  const [inserted] = await sendInTransaction(tx, [
    INSERT_QUOTE({
      cliente: q.clienteId, operacao: q.operacaoId, versao: q.versao, produtoVersao: q.produtoVersao, validaAte: q.validaAte.toISOString(),
      face: String(q.valorFaceCentavos), desagio: String(q.desagioCentavos), adValorem: String(q.adValoremCentavos), tarifas: String(q.tarifasCentavos),
      tac: String(q.tacCentavos), iof: String(q.iofCentavos), liquido: String(q.valorLiquidoCentavos), compensacoes: String(q.compensacoesCentavos ?? 0n),
      calculo, em,
    }),
    MARK_QUOTED({ id: q.operacaoId, versao: q.versao, em }),
  ])
  return { ...decodeQuote(inserted![0]!), calculo: q.calculo, calculoJson: calculo }
}

export type NewTitle = Pick<Title, 'tipo' | 'numero' | 'sacadoId' | 'emissao' | 'vencimento' | 'valorFaceCentavos' | 'chaveNfe' | 'idExterno'>

/**
 * Adds títulos to a draft. An NF-e key held by a título not cancelled is refused with the título that holds it:
 * read first for the answer, and the unique index decides a race (two operations adding the key at once).
 */
export async function addTitles(tx: Orm, op: Pick<Operation, 'id' | 'clienteId' | 'cedenteId'>, list: NewTitle[], now: Date): Promise<Title[]> {
  // A duplicata is its NF-e key and its number: the installments of one invoice share the key (issue 31 item 3).
  const duplicatas = list.filter((t): t is NewTitle & { chaveNfe: string } => t.chaveNfe !== null).map((t) => ({ chave: t.chaveNfe, numero: t.numero }))
  const named = duplicatas.map((d) => `${d.chave} ${d.numero}`)
  const repeated = duplicatas.find((_, i) => named.indexOf(named[i]!) !== i)
  if (repeated) throw new DuplicateTitleError(repeated.chave, repeated.numero, null)
  if (duplicatas.length) {
    const [held] = await heldDuplicatas(tx, duplicatas)
    if (held) throw new DuplicateTitleError(held.chave, held.numero, held.id)
  }
  const ids = list.map((t) => t.idExterno).filter((k): k is string => k !== null)
  try {
    return await tx.transaction(async (sp) => sp.insert(titulos).values(list.map((t) => ({
      ...t, clienteId: op.clienteId, operacaoId: op.id, cedenteId: op.cedenteId, saldoCentavos: t.valorFaceCentavos, criadoEm: now, atualizadoEm: now,
    }))).returning())
  } catch (err) {
    if (isUniqueViolation(err, 'titulos_duplicata_viva')) {
      const [held] = await heldDuplicatas(tx, duplicatas)
      throw new DuplicateTitleError(held?.chave ?? duplicatas[0]!.chave, held?.numero ?? duplicatas[0]!.numero, held?.id ?? null)
    }
    if (isUniqueViolation(err, 'titulos_id_externo_unico')) {
      const [held] = await tx.select({ id: titulos.id }).from(titulos).where(inArray(titulos.idExterno, ids)).limit(1)
      throw new ExternalIdInUseError(held!.id)
    }
    throw err
  }
}

async function heldDuplicatas(tx: Orm, list: { chave: string, numero: string }[]): Promise<{ id: string, chave: string, numero: string }[]> {
  const keys = [...new Set(list.map((d) => d.chave))]
  const live = await tx.select({ id: titulos.id, chave: sql<string>`${titulos.chaveNfe}`, numero: titulos.numero }).from(titulos)
    .where(and(inArray(titulos.chaveNfe, keys), ne(titulos.estado, 'cancelado'))).orderBy(asc(titulos.seq))
  return live.filter((t) => list.some((d) => d.chave === t.chave && d.numero === t.numero))
}

/** Whether the operation's título has a confirmation or a registry request (records that are kept, never removed). */
export async function hasChecks(tx: Orm, operacaoId: string, tituloId: string): Promise<boolean> {
  // Locked first, as a confirmation or a registry query locks it: neither lands between this check and the removal.
  await tx.execute(sql`SELECT id FROM titulos WHERE id = ${tituloId}::uuid AND operacao_id = ${operacaoId}::uuid FOR UPDATE`)
  const [r] = await queryRows<{ yes: boolean }>(tx, sql`SELECT EXISTS (SELECT 1 FROM titulos t WHERE t.id = ${tituloId}::uuid
    AND t.operacao_id = ${operacaoId}::uuid AND (EXISTS (SELECT 1 FROM confirmacoes c WHERE c.cliente_id = t.cliente_id AND c.titulo_id = t.id)
      OR EXISTS (SELECT 1 FROM registro_pedidos p WHERE p.cliente_id = t.cliente_id AND p.titulo_id = t.id))) AS yes`)
  return r!.yes
}

/** Removes a título of a draft; false when the operation has none with this id. */
export async function removeTitle(tx: Orm, operacaoId: string, tituloId: string): Promise<boolean> {
  const gone = await tx.delete(titulos).where(and(eq(titulos.operacaoId, operacaoId), eq(titulos.id, tituloId))).returning({ id: titulos.id })
  return gone.length > 0
}

/** Every título of the operation to `estado`, with its open balance. */
export async function setTitles(tx: Orm, operacaoId: string, estado: Title['estado'], saldo: 'face' | 'zero', now: Date): Promise<void> {
  await tx.update(titulos).set({
    estado, saldoCentavos: saldo === 'face' ? sql`${titulos.valorFaceCentavos}` as never : 0n, atualizadoEm: now,
  }).where(eq(titulos.operacaoId, operacaoId))
}

export async function getTitle(tx: Orm, id: string): Promise<Title | undefined> {
  const [row] = await tx.select().from(titulos).where(eq(titulos.id, id))
  return row
}

export async function quoteOf(tx: Orm, operacaoId: string, versao: number): Promise<Quote | undefined> {
  const [row] = await tx.select().from(cotacoes).where(and(eq(cotacoes.operacaoId, operacaoId), eq(cotacoes.versao, versao)))
  return row
}

export async function latestPayment(tx: Orm, operacaoId: string): Promise<Payment | undefined> {
  const [row] = await tx.select().from(desembolsos).where(eq(desembolsos.operacaoId, operacaoId)).orderBy(desc(desembolsos.seq)).limit(1)
  return row
}
