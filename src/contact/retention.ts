// Personal data is kept for CONTACT_RETENTION_DAYS, then erased; the audit rows (no personal data) stay.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm'
import type { Orm } from '../db/database.ts'
import type { Job } from '../jobs/job.ts'
import { auditoria, contato, outbox } from '../db/schema.ts'

/** Erases name, e-mail, message, company, phone and site of contacts older than `days` whose delivery is over, and of spam (never delivered). */
export async function purgePersonalData(orm: Orm, days: number, now: Date, mailDir: string): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000)
  const erased = await orm.transaction(async (tx) => {
    // A message still waiting to be delivered keeps what it needs to be sent.
    const finished = tx.select({ id: outbox.contatoId }).from(outbox)
      .where(and(eq(outbox.tipo, 'contato'), inArray(outbox.estado, ['enviado', 'sandbox', 'falhou'])))
    const erased = await tx.update(contato)
      .set({ nome: null, email: null, mensagem: null, empresa: null, telefone: null, site: null, dadosApagadosEm: now })
      .where(and(lt(contato.criadoEm, cutoff), isNull(contato.dadosApagadosEm), or(inArray(contato.id, finished), isNotNull(contato.spam))))
      .returning({ protocolo: contato.protocolo })
    for (const r of erased) await tx.insert(auditoria).values({ em: now, acao: 'contato.dados_apagados', protocolo: r.protocolo })
    await tx.update(outbox).set({ eml: null }).where(inArray(outbox.protocolo, erased.length ? erased.map((r) => r.protocolo) : ['']))
    return erased.map((r) => r.protocolo)
  })
  // The sandbox copies on disk hold the same personal data.
  for (const protocolo of erased) rmSync(join(mailDir, `${protocolo}.eml`), { force: true })
  return erased.length
}

export type RetentionDeps = {
  orm: Orm, days: number, mailDir: string,
  log: { info(o: object, m: string): void },
}

/**
 * Erases expired personal data every 6 hours (a minute after the first start), so the retention the privacy page
 * promises holds without an operator. Idempotent.
 */
export function retentionJob(deps: RetentionDeps): Job {
  return {
    name: 'contatos-retencao',
    schedule: { everyMs: 6 * 3_600_000 },
    async run(now) {
      const n = await purgePersonalData(deps.orm, deps.days, now, deps.mailDir)
      if (n > 0) deps.log.info({ apagados: n, dias: deps.days }, 'personal data past retention erased')
      return n
    },
  }
}
