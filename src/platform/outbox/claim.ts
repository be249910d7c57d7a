// Taking the next due message. A claim is a lease: the row is marked `enviando` with its attempt counted in one
// statement (FOR UPDATE SKIP LOCKED, so two workers never take the same row), and a row held by a worker that died
// is taken again once the lease is over. The row is the whole message: nothing else is read to send it.
import { sql } from 'drizzle-orm'
import { queryRows, type Orm } from '../db/database.ts'
import type { MailHeaders } from '../db/schema.ts'

export type Claimed = {
  id: number
  tipo: string
  transporte: string
  protocolo: string
  destino: string
  tentativas: number
  criadoEm: Date
  requestId: string
  /** The parts, null once erased. */
  assuntoEmail: string | null
  texto: string | null
  html: string | null
  cabecalhos: MailHeaders | null
  expiraEm: Date | null
}

type Row = Omit<Claimed, 'criadoEm' | 'expiraEm'> & { criadoEm: string | Date, expiraEm: string | Date | null }

export async function claimNext(orm: Orm, now: Date, leaseMs: number): Promise<Claimed | undefined> {
  const leaseOver = new Date(now.getTime() - leaseMs)
  const [row] = await queryRows<Row>(orm, sql`
    UPDATE outbox SET estado = 'enviando', tentativas = tentativas + 1, atualizado_em = ${now}
     WHERE id = (SELECT id FROM outbox
                  WHERE (estado = 'pendente' AND proxima_tentativa_em <= ${now})
                     OR (estado = 'enviando' AND atualizado_em < ${leaseOver})
                  ORDER BY proxima_tentativa_em, id
                  LIMIT 1
                  FOR UPDATE SKIP LOCKED)
    RETURNING id, tipo, transporte, protocolo, destino, tentativas, criado_em AS "criadoEm", request_id AS "requestId",
              assunto_email AS "assuntoEmail", texto, html, cabecalhos, expira_em AS "expiraEm"`)
  if (!row) return undefined
  return { ...row, id: Number(row.id), criadoEm: new Date(row.criadoEm), expiraEm: row.expiraEm === null ? null : new Date(row.expiraEm) }
}

/** Why there is nothing left to send (the failure then recorded is final), or null. */
export function unsendable(row: Claimed, now: Date): string | null {
  if (row.expiraEm && row.expiraEm.getTime() <= now.getTime()) return 'expired before delivery'
  if (row.assuntoEmail === null || row.texto === null) return 'content already erased; nothing to send'
  return null
}
