// Taking the next due message, and turning it into the e-mail to send. A claim is a lease: the row is marked
// `enviando` with its attempt counted in one statement (FOR UPDATE SKIP LOCKED, so two workers never take the same
// row), and a row held by a worker that died is taken again once the lease is over.
import { sql } from 'drizzle-orm'
import type Mail from 'nodemailer/lib/mailer/index.js'
import type { SubjectRouter } from '../contact/subjects.ts'
import { queryRows, type Orm } from '../db/database.ts'
import type { MessageKind } from './enqueue.ts'
import { contactForMail, messageIdFor, renderContactMail } from './message.ts'
import { headerSafe } from './mime-safe.ts'

type Common = { id: number, protocolo: string, destino: string, tentativas: number, criadoEm: Date, requestId: string }

/** A contact's message: rendered from the contact row (null fields: erased by retention). */
type ContactClaim = Common & {
  tipo: 'contato'
  assunto: string
  nome: string | null
  email: string | null
  mensagem: string | null
  empresa: string | null
  telefone: string | null
  site: string | null
}

/** A message of another kind: its parts as queued (null once erased). */
type MessageClaim = Common & { tipo: MessageKind, assuntoEmail: string, texto: string | null, html: string | null, expiraEm: Date }

export type Claimed = ContactClaim | MessageClaim

type Row = Omit<ContactClaim, 'tipo' | 'criadoEm' | 'assunto'> & Omit<MessageClaim, 'tipo' | 'criadoEm' | 'expiraEm'> & {
  tipo: Claimed['tipo'], criadoEm: string | Date, assunto: string | null, expiraEm: string | Date | null
}

export async function claimNext(orm: Orm, now: Date, leaseMs: number): Promise<Claimed | undefined> {
  const leaseOver = new Date(now.getTime() - leaseMs)
  const [row] = await queryRows<Row>(orm, sql`
    WITH claimed AS (
      UPDATE outbox SET estado = 'enviando', tentativas = tentativas + 1, atualizado_em = ${now}
       WHERE id = (SELECT id FROM outbox
                    WHERE (estado = 'pendente' AND proxima_tentativa_em <= ${now})
                       OR (estado = 'enviando' AND atualizado_em < ${leaseOver})
                    ORDER BY proxima_tentativa_em, id
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED)
      RETURNING id, tipo, protocolo, destino, tentativas, contato_id, criado_em, request_id, assunto_email, texto, html, expira_em)
    SELECT claimed.id, claimed.tipo, claimed.protocolo, claimed.destino, claimed.tentativas,
           COALESCE(c.criado_em, claimed.criado_em) AS "criadoEm", COALESCE(c.request_id, claimed.request_id) AS "requestId",
           c.assunto, c.nome, c.email, c.mensagem, c.empresa, c.telefone, c.site,
           claimed.assunto_email AS "assuntoEmail", claimed.texto, claimed.html, claimed.expira_em AS "expiraEm"
      FROM claimed LEFT JOIN contato c ON c.id = claimed.contato_id`)
  if (!row) return undefined
  const common = {
    id: Number(row.id), protocolo: row.protocolo, destino: row.destino, tentativas: row.tentativas, criadoEm: new Date(row.criadoEm), requestId: row.requestId,
  }
  if (row.tipo === 'contato') {
    const { nome, email, mensagem, empresa, telefone, site } = row
    return { ...common, tipo: 'contato', assunto: row.assunto!, nome, email, mensagem, empresa, telefone, site }
  }
  return { ...common, tipo: row.tipo, assuntoEmail: row.assuntoEmail, texto: row.texto, html: row.html, expiraEm: new Date(row.expiraEm!) }
}

/** The e-mail to send, or why there is nothing left to send (the failure then recorded is final). */
export function composeMail(row: Claimed, subjects: SubjectRouter, mailFrom: string, now: Date): { mail: Mail.Options } | { unsendable: string } {
  if (row.tipo === 'contato') {
    const { nome, email, mensagem } = row
    if (nome === null || email === null || mensagem === null) return { unsendable: 'personal data already erased; nothing to send' }
    const rotulo = subjects.list().find((s) => s.codigo === row.assunto)?.rotulo ?? row.assunto
    return { mail: renderContactMail(contactForMail({ ...row, nome, email, mensagem, rotulo }), mailFrom) }
  }
  if (row.expiraEm.getTime() <= now.getTime()) return { unsendable: 'expired before delivery' }
  if (row.texto === null || row.html === null) return { unsendable: 'content already erased; nothing to send' }
  return {
    mail: {
      from: mailFrom,
      to: row.destino,
      subject: headerSafe(row.assuntoEmail),
      messageId: messageIdFor(row.protocolo, mailFrom),
      date: row.criadoEm,
      // RFC 3834: sent by a machine, so auto-responders do not answer it.
      headers: { 'Auto-Submitted': 'auto-generated', 'X-Request-ID': headerSafe(row.requestId, 128) },
      text: row.texto,
      html: row.html,
    },
  }
}
