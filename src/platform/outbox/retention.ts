// A message keeps its content only while it may still be sent (docs/decisions.md, "One outbox for every message").
// Delivered, the worker erases it at once; what is left at its expiry (a sandbox copy, a failed message's parts kept
// for a re-queue, a message never sent) is erased here, in the database and on disk. A producer's own retention
// (the contact form's) erases its messages through `eraseContent` too. Audit rows (no content) stay.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { and, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import { auditoria, outbox } from '../db/schema.ts'
import type { Job } from '../jobs/job.ts'

/**
 * Erases, in `tx`, what the rows `where` selects hold of their message: parts, headers and sandbox copy, and the
 * subject too when it names a person (`subject`). Answers the rows; their `.eml` files go with `removeSandboxCopies`
 * once `tx` has committed.
 */
export async function eraseContent(tx: Orm, where: SQL, now: Date, opts: { subject: boolean }) {
  return tx.update(outbox)
    .set({
      texto: null, html: null, cabecalhos: null, anexos: null, eml: null, ...(opts.subject && { assuntoEmail: null }),
      // A row erased before (its parts on delivery) keeps that time.
      conteudoApagadoEm: sql`coalesce(${outbox.conteudoApagadoEm}, ${now}::timestamptz)`,
    })
    .where(where)
    .returning({ protocolo: outbox.protocolo, tipo: outbox.tipo })
}

/** The messages of these protocolos, as an erased row's producer asks: gone from the database, now from DATA_DIR/mail. */
export function removeSandboxCopies(mailDir: string, protocolos: string[]): void {
  for (const protocolo of protocolos) rmSync(join(mailDir, `${protocolo}.eml`), { force: true })
}

/** The rows of these protocolos (none when the list is empty). */
export const protocoloIn = (protocolos: string[]) => inArray(outbox.protocolo, protocolos.length ? protocolos : [''])

/** Erases the content of messages expired at `now`; answers how many. Idempotent. */
export async function purgeExpiredContent(orm: Orm, now: Date, mailDir: string): Promise<number> {
  const erased = await orm.transaction(async (tx) => {
    const rows = await eraseContent(tx, and(isNotNull(outbox.expiraEm), lte(outbox.expiraEm, now), isNull(outbox.conteudoApagadoEm))!, now, { subject: false })
    for (const r of rows) await tx.insert(auditoria).values({ em: now, acao: `${r.tipo}.conteudo_apagado`, protocolo: r.protocolo })
    return rows
  })
  removeSandboxCopies(mailDir, erased.map((r) => r.protocolo))
  return erased.length
}

type ContentPurgeDeps = { orm: Orm, mailDir: string, log: { info(o: object, m: string): void } }

/** Every hour, so an expired link never lingers long whoever runs the server. */
export function contentPurgeJob(deps: ContentPurgeDeps): Job {
  return {
    name: 'mensagens-conteudo-expurgo',
    schedule: { everyMs: 3_600_000 },
    async run(now) {
      const n = await purgeExpiredContent(deps.orm, now, deps.mailDir)
      if (n > 0) deps.log.info({ apagados: n }, 'expired message content erased')
      return n
    },
  }
}
