// The customer's pricing terms: a product and its versions, each version fixed once made (a change is the next
// version, numbered under the product row's lock, so two at once get 2 and 3, never 2 twice).
import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../../../platform/db/database.ts'
import type { Read } from '../../../platform/db/in-transaction.ts'
import { fixedStatement } from '../../../platform/db/one-trip.ts'
import { columnsOf, rowDecoder } from '../../../platform/db/table-rows.ts'
import { isUniqueViolation } from '../../../platform/db/driver-errors.ts'
import { pageFrom } from '../../../platform/http/api-schemas.ts'
import { ExternalIdInUseError } from '../../../platform/tenancy/external-id.ts'
import { plainDecimal } from '../decimal.ts'
import type { Terms } from '../engine.ts'
import { produtos, produtoVersoes } from './tables.ts'

/** `coobrigacao`: the cedente answers for the sacado's payment (a FIDC's or securitizadora's recourse): a buy-back for default may be asked. */
/** `exigeConfirmacao`: an operation is accepted only with every título confirmed with its sacado, or waived (migration 0049). */
/** `exigeRegistro`: every duplicata's registry query clean before acceptance, and its assignment registered at it (migration 0050). */
export type ProductTerms = Terms & { motivoIsencao: string | null, coobrigacao: boolean, exigeConfirmacao: boolean, exigeRegistro: boolean }
export type Version = ProductTerms & { versao: number, criadoEm: Date }
export type Product = { id: string, seq: number, idExterno: string | null, nome: string, criadoEm: Date, versoes: Version[] }

export async function createProduct(
  tx: Orm, input: { clienteId: string, idExterno: string | null, nome: string, terms: ProductTerms }, now: Date,
): Promise<Product> {
  let made: typeof produtos.$inferSelect
  try {
    made = (await tx.transaction(async (sp) => sp.insert(produtos).values({
      clienteId: input.clienteId, idExterno: input.idExterno, nome: input.nome, criadoEm: now,
    }).returning()))[0]!
  } catch (err) {
    if (input.idExterno === null || !isUniqueViolation(err, 'produtos_id_externo_unico')) throw err
    const [held] = await tx.select({ id: produtos.id }).from(produtos).where(eq(produtos.idExterno, input.idExterno))
    throw new ExternalIdInUseError(held!.id)
  }
  const version = await insertVersion(tx, made, 1, input.terms, now)
  return { id: made.id, seq: made.seq, idExterno: made.idExterno, nome: made.nome, criadoEm: made.criadoEm, versoes: [version] }
}

/** The product's next version; undefined when the customer has no product with this id. */
export async function addVersion(tx: Orm, produtoId: string, terms: ProductTerms, now: Date): Promise<Product | undefined> {
  const [row] = await tx.update(produtos).set({ versaoAtual: sql`${produtos.versaoAtual} + 1` }).where(eq(produtos.id, produtoId)).returning()
  if (!row) return undefined
  await insertVersion(tx, row, row.versaoAtual, terms, now)
  return getProduct(tx, produtoId)
}

/** A product with every version, newest first; `latest`: with the latest only (what a quote prices with). */
export async function getProduct(tx: Orm, id: string, versions: 'all' | 'latest' = 'all'): Promise<Product | undefined> {
  const [row] = await tx.select().from(produtos).where(eq(produtos.id, id))
  if (!row) return undefined
  const versoes = versions === 'latest'
    ? (await tx.select().from(produtoVersoes).where(and(eq(produtoVersoes.produtoId, id), eq(produtoVersoes.versao, row.versaoAtual)))).map(asVersion)
    : (await versionsOf(tx, [id], false)).get(id) ?? []
  return { id: row.id, seq: row.seq, idExterno: row.idExterno, nome: row.nome, criadoEm: row.criadoEm, versoes }
}

/** A page of products, newest first, each with its latest version only. */
export async function listProducts(tx: Orm, page: { limit: number, before?: number }): Promise<{ items: Product[], next: number | null }> {
  const where: SQL[] = page.before !== undefined ? [lt(produtos.seq, page.before)] : []
  const { items, next } = pageFrom(await tx.select().from(produtos).where(and(...where)).orderBy(desc(produtos.seq)).limit(page.limit + 1), page.limit)
  const versions = await versionsOf(tx, items.map((r) => r.id), true)
  return {
    items: items.map((r) => ({ id: r.id, seq: r.seq, idExterno: r.idExterno, nome: r.nome, criadoEm: r.criadoEm, versoes: versions.get(r.id) ?? [] })),
    next,
  }
}

async function insertVersion(tx: Orm, p: { id: string, clienteId: string }, versao: number, t: ProductTerms, now: Date): Promise<Version> {
  const [v] = await tx.insert(produtoVersoes).values({
    clienteId: p.clienteId, produtoId: p.id, versao, base: t.base, taxaMensal: t.taxaMensal, taxaAdValorem: t.taxaAdValorem,
    tarifaPorTituloCentavos: t.tarifaPorTituloCentavos, tacCentavos: t.tacCentavos, diasFloat: t.diasFloat, iof: t.iof, motivoIsencao: t.motivoIsencao,
    coobrigacao: t.coobrigacao, exigeConfirmacao: t.exigeConfirmacao, exigeRegistro: t.exigeRegistro, criadoEm: now,
  }).returning()
  return asVersion(v!)
}

async function versionsOf(tx: Orm, ids: string[], latestOnly: boolean): Promise<Map<string, Version[]>> {
  const out = new Map<string, Version[]>()
  if (!ids.length) return out
  const rows = await tx.select().from(produtoVersoes).where(inArray(produtoVersoes.produtoId, ids))
    .orderBy(asc(produtoVersoes.produtoId), desc(produtoVersoes.versao))
  for (const r of rows) {
    const list = out.get(r.produtoId) ?? []
    if (!latestOnly || list.length === 0) list.push(asVersion(r))
    out.set(r.produtoId, list)
  }
  return out
}

function asVersion(r: typeof produtoVersoes.$inferSelect): Version {
  return {
    versao: r.versao, base: r.base, taxaMensal: plainDecimal(r.taxaMensal), taxaAdValorem: plainDecimal(r.taxaAdValorem),
    tarifaPorTituloCentavos: r.tarifaPorTituloCentavos,
    tacCentavos: r.tacCentavos, diasFloat: r.diasFloat, iof: r.iof, motivoIsencao: r.motivoIsencao, coobrigacao: r.coobrigacao,
    exigeConfirmacao: r.exigeConfirmacao, exigeRegistro: r.exigeRegistro, criadoEm: r.criadoEm,
  }
}

const decodeVersion = rowDecoder(produtoVersoes)
const LATEST_VERSION = fixedStatement<'produto'>(sql`SELECT ${columnsOf(produtoVersoes)} FROM ${produtoVersoes}
  JOIN ${produtos} ON ${produtos.id} = ${produtoVersoes.produtoId} AND ${produtos.versaoAtual} = ${produtoVersoes.versao}
  WHERE ${produtos.id} = ${sql.placeholder('produto')}`)

/** The product's latest version (what a quote prices with), as a read of a transaction's round trip; undefined for no such product. */
export const latestVersionRead = (produtoId: string): Read<Version | undefined> => ({
  statement: LATEST_VERSION({ produto: produtoId }),
  answer: (rows) => (rows[0] ? asVersion(decodeVersion(rows[0])) : undefined),
})
