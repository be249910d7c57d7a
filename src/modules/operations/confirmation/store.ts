// Confirmations' rows (migration 0049), in the customer's transaction: row security keeps each customer's own. The
// sacado's page reads and answers through the database's own functions instead (public-routes.ts): it has no customer.
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../../../platform/db/database.ts'

export type ConfirmationRow = {
  id: string, titulo_id: string, meio: string, estado: string, destinatario: string | null, expira_em: Date | null, respondido_em: Date | null,
  observacao: string | null, valor_confirmado_centavos: string | null, evidencia_sha256: string | null, evidencia_tipo: string | null,
  evidencia_nome: string | null, evidencia_tamanho: number | null, usuario_id: string | null, criado_em: Date,
}

const COLUMNS = sql`c.id, c.titulo_id, c.meio, c.estado, c.destinatario, c.expira_em, c.respondido_em, c.observacao,
  c.valor_confirmado_centavos::text AS valor_confirmado_centavos, c.evidencia_sha256, c.evidencia_tipo, c.evidencia_nome,
  octet_length(c.evidencia) AS evidencia_tamanho, c.usuario_id, c.criado_em`

const asDates = (r: ConfirmationRow): ConfirmationRow => ({
  ...r, expira_em: r.expira_em && new Date(r.expira_em), respondido_em: r.respondido_em && new Date(r.respondido_em), criado_em: new Date(r.criado_em),
})

export type NewConfirmation = {
  clienteId: string, tituloId: string, meio: 'link' | 'telefone' | 'email' | 'dispensa', estado: string, tokenHash?: Buffer, destinatario?: string,
  expiraEm?: Date, observacao?: string | null, valorConfirmadoCentavos?: bigint | null,
  evidencia?: { sha256: string, tipo: string, nome: string | null, bytes: Buffer } | null, usuarioId: string | null, now: Date,
}

/**
 * A new confirmation of a título, its state then the título's. An open link of the título is superseded first (one
 * open per título, the database's unique index): its page then says what an unknown link says.
 */
export async function insertConfirmation(tx: Orm, c: NewConfirmation): Promise<string> {
  const at = c.now.toISOString()
  await tx.execute(sql`UPDATE confirmacoes SET estado = 'substituida', atualizado_em = ${at}::timestamptz
    WHERE titulo_id = ${c.tituloId}::uuid AND estado = 'em_andamento'`)
  const e = c.evidencia ?? null
  const [row] = await queryRows<{ id: string }>(tx, sql`INSERT INTO confirmacoes (cliente_id, titulo_id, meio, estado, token_sha256, destinatario,
      expira_em, observacao, valor_confirmado_centavos, evidencia_sha256, evidencia_tipo, evidencia_nome, evidencia, usuario_id, criado_em, atualizado_em)
    VALUES (${c.clienteId}::uuid, ${c.tituloId}::uuid, ${c.meio}, ${c.estado}, ${c.tokenHash ?? null}, ${c.destinatario ?? null},
      ${c.expiraEm?.toISOString() ?? null}::timestamptz, ${c.observacao ?? null}, ${c.valorConfirmadoCentavos?.toString() ?? null}::bigint,
      ${e?.sha256 ?? null}, ${e?.tipo ?? null}, ${e?.nome ?? null}, ${e?.bytes ?? null}, ${c.usuarioId}::uuid, ${at}::timestamptz, ${at}::timestamptz)
    RETURNING id`)
  await tx.execute(sql`UPDATE titulos SET confirmacao_estado = ${c.estado}, atualizado_em = ${at}::timestamptz WHERE id = ${c.tituloId}::uuid`)
  return row!.id
}

export async function getConfirmation(tx: Orm, tituloId: string, id: string): Promise<ConfirmationRow | undefined> {
  const [r] = await queryRows<ConfirmationRow>(tx, sql`SELECT ${COLUMNS} FROM confirmacoes c WHERE c.titulo_id = ${tituloId}::uuid AND c.id = ${id}::uuid`)
  return r && asDates(r)
}

/** A título's confirmations, newest first. */
export async function confirmationsOf(tx: Orm, tituloId: string): Promise<ConfirmationRow[]> {
  const rows = await queryRows<ConfirmationRow>(tx, sql`SELECT ${COLUMNS} FROM confirmacoes c WHERE c.titulo_id = ${tituloId}::uuid ORDER BY c.seq DESC
    LIMIT 200`)
  return rows.map(asDates)
}

export async function evidenceOf(tx: Orm, tituloId: string, id: string): Promise<{ bytes: Buffer, tipo: string, nome: string | null } | undefined> {
  const [r] = await queryRows<{ evidencia: Buffer | Uint8Array | null, evidencia_tipo: string | null, evidencia_nome: string | null }>(tx,
    sql`SELECT evidencia, evidencia_tipo, evidencia_nome FROM confirmacoes WHERE titulo_id = ${tituloId}::uuid AND id = ${id}::uuid`)
  if (!r?.evidencia) return undefined
  return { bytes: Buffer.from(r.evidencia), tipo: r.evidencia_tipo!, nome: r.evidencia_nome }
}

export type TitleToConfirm = {
  id: string, sacado_id: string, numero: string, estado: string, confirmacao_estado: string, tipo: string, valor_face_centavos: string, vencimento: string,
  sacado_email: string | null, sacado_razao_social: string, cedente_razao_social: string,
}

/** The título with what a confirmation needs to know of it; locked to change it: two confirmations of it at once go one after the other. */
export async function titleForConfirmation(tx: Orm, id: string, lock = true): Promise<TitleToConfirm | undefined> {
  const [r] = await queryRows<TitleToConfirm>(tx, sql`SELECT t.id, t.sacado_id, t.numero, t.estado, t.confirmacao_estado, t.tipo,
      t.valor_face_centavos::text AS valor_face_centavos, t.vencimento::text AS vencimento, s.email AS sacado_email,
      s.razao_social AS sacado_razao_social, ce.razao_social AS cedente_razao_social
    FROM titulos t JOIN sacados s ON s.cliente_id = t.cliente_id AND s.id = t.sacado_id
      JOIN cedentes ce ON ce.cliente_id = t.cliente_id AND ce.id = t.cedente_id
    WHERE t.id = ${id}::uuid ${lock ? sql`FOR UPDATE OF t` : sql``}`)
  return r
}
