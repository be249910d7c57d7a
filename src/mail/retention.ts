// A message of another kind than a contact keeps its content only while it may still be sent (docs/decisions.md,
// "Messages of other kinds"). Delivered over SMTP, the worker erases it at once; what is left at its expiry (a
// sandbox copy, a failed message's parts kept for a re-queue, a message never sent) is erased here, in the
// database and on disk. Audit rows (no content) stay, and one more records the erasure.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { and, isNotNull, isNull, lte } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import { auditoria, outbox } from '../db/schema.ts'
import type { Job } from '../jobs/job.ts'

/** Erases the content of messages expired at `now`; answers how many. Idempotent. */
export async function purgeExpiredContent(orm: Orm, now: Date, mailDir: string): Promise<number> {
  const erased = await orm.transaction(async (tx) => {
    const rows = await tx.update(outbox).set({ texto: null, html: null, eml: null, conteudoApagadoEm: now })
      .where(and(isNotNull(outbox.expiraEm), lte(outbox.expiraEm, now), isNull(outbox.conteudoApagadoEm)))
      .returning({ protocolo: outbox.protocolo, tipo: outbox.tipo })
    for (const r of rows) await tx.insert(auditoria).values({ em: now, acao: `${r.tipo}.conteudo_apagado`, protocolo: r.protocolo })
    return rows
  })
  for (const { protocolo } of erased) rmSync(join(mailDir, `${protocolo}.eml`), { force: true })
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
