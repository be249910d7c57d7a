// Storing a contact: the contact row, its e-mail rendered and queued in the outbox, and an audit row in one
// transaction, so a 202 is a promise that the message will be delivered. A double click answers the first protocolo.
import { createHash } from 'node:crypto'
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Clock } from '../../platform/lib/clock.ts'
import type { Orm } from '../../platform/db/database.ts'
import { ipHash as hashIp } from '../../platform/lib/ip-hash.ts'
import { auditoria, contato, instalacao } from '../../platform/db/schema.ts'
import { enqueueMessage } from '../../platform/outbox/enqueue.ts'
import { newProtocolo } from '../../platform/outbox/protocolo.ts'
import type { SpamReason } from './spam/rules.ts'
import { renderContactMail } from './mail.ts'
import { CONTACT_PREFIX } from './protocolo.ts'
import type { Subject } from './subjects.ts'

export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000

export type ContactFields = {
  nome: string
  email: string
  mensagem: string
  empresa: string
  telefone: string
  site: string
}

/** `spam`: a bot's contact, stored with the reason and never given an outbox row (never e-mailed). */
export type Submission = { fields: ContactFields, subject: Subject, requestId: string, ip: string, spam?: SpamReason }
export type Stored = { protocolo: string, destino: string, novo: boolean }

export type ContactStore = {
  /** In its own transaction, or in `tx` (an Idempotency-Key's, which stores the answer with the contact). */
  submit(s: Submission, tx?: Orm): Promise<Stored>
  /** The per-installation secret (keys the IP hashes; the form tokens derive their own key from it). */
  secret(): Promise<string>
}

export function makeContactStore(orm: Orm, clock: Clock): ContactStore {
  let salt: Promise<string> | undefined
  // Read through the caller's transaction when there is one: on the embedded database a query outside it would wait for it.
  const ipSalt = (via: Orm = orm) => (salt ??= via.select({ s: instalacao.salIp }).from(instalacao).then((r) => r[0]!.s)
    .catch((err) => { salt = undefined; throw err }))

  return {
    secret: () => ipSalt(),
    async submit({ fields, subject, requestId, ip, spam }, outer) {
      const clean = sanitizeFields(fields)
      const impressao = fingerprint(clean, subject.codigo)
      const ipHash = hashIp(await ipSalt(outer), ip)
      const now = clock.now()
      const inTransaction = <T>(fn: (tx: Orm) => Promise<T>) => (outer ? fn(outer) : orm.transaction(fn))
      return inTransaction(async (tx) => {
        // Identical submissions queue here, so two racing double-clicks still store one message.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${impressao}, 0))`)
        // A double click finds its first copy among its own kind: a person's message identical to a bot's earlier
        // one is still delivered, and a bot's repeat is still spam.
        const [previous] = await tx.select({ protocolo: contato.protocolo, destino: contato.destino }).from(contato)
          .where(and(eq(contato.impressao, impressao), gt(contato.criadoEm, new Date(now.getTime() - DUPLICATE_WINDOW_MS)),
            spam ? isNotNull(contato.spam) : isNull(contato.spam)))
          .limit(1)
        if (previous) return { ...previous, novo: false }
        const protocolo = newProtocolo(now, CONTACT_PREFIX)
        await tx.insert(contato).values({
          protocolo, criadoEm: now, assunto: subject.codigo, destino: subject.email, ...clean, impressao, requestId, ipHash, spam: spam ?? null,
        })
        if (spam) {
          await tx.insert(auditoria).values({ em: now, acao: 'contato.spam', protocolo, assunto: subject.codigo, requestId, ipHash })
          return { protocolo, destino: subject.email, novo: true }
        }
        const mail = renderContactMail({ ...clean, protocolo, criadoEm: now, assunto: subject.codigo, rotulo: subject.rotulo, requestId })
        await enqueueMessage(tx, { kind: 'contato', name: { protocolo }, to: subject.email, requestId, audited: false, ...mail }, { now: () => now })
        // No personal data in the audit trail: only what ties the event to the request.
        await tx.insert(auditoria).values({ em: now, acao: 'contato.recebido', protocolo, assunto: subject.codigo, requestId, ipHash })
        return { protocolo, destino: subject.email, novo: true }
      })
    },
  }
}

// PostgreSQL text cannot hold NUL; the other control characters are kept and escaped wherever they are shown.
function sanitizeFields(f: ContactFields): ContactFields {
  const strip = (s: string) => s.replaceAll('\u0000', '')
  return {
    nome: strip(f.nome), email: strip(f.email), mensagem: strip(f.mensagem),
    empresa: strip(f.empresa), telefone: strip(f.telefone), site: strip(f.site),
  }
}

function fingerprint(f: ContactFields, assunto: string): string {
  return createHash('sha256').update(JSON.stringify([f.nome, f.email, assunto, f.mensagem, f.empresa, f.telefone, f.site])).digest('hex')
}
