// Personal data is kept for CONTACT_RETENTION_DAYS, then erased; the audit rows (no personal data) stay.
import { and, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import type { Job } from '../../platform/jobs/job.ts'
import { auditoria, contato, outbox } from '../../platform/db/schema.ts'
import { eraseContent, protocoloIn, removeSandboxCopies } from '../../platform/outbox/retention.ts'

/**
 * Erases name, e-mail, message, company, phone and site of contacts older than `days` whose delivery is over, and of
 * spam (never delivered); and their e-mail, which holds the same: what its outbox row keeps (subject included: it
 * names the visitor) and its sandbox copy.
 */
export async function purgePersonalData(orm: Orm, days: number, now: Date, mailDir: string): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000)
  const erased = await orm.transaction(async (tx) => {
    // A message still waiting to be delivered keeps what it needs to be sent.
    // A contact and its message share the protocolo.
    const finished = tx.select({ protocolo: outbox.protocolo }).from(outbox).where(inArray(outbox.estado, ['enviado', 'sandbox', 'falhou']))
    const erased = await tx.update(contato)
      .set({ nome: null, email: null, mensagem: null, empresa: null, telefone: null, site: null, dadosApagadosEm: now })
      .where(and(lt(contato.criadoEm, cutoff), isNull(contato.dadosApagadosEm), or(inArray(contato.protocolo, finished), isNotNull(contato.spam))))
      .returning({ protocolo: contato.protocolo })
    for (const r of erased) await tx.insert(auditoria).values({ em: now, acao: 'contato.dados_apagados', protocolo: r.protocolo })
    const protocolos = erased.map((r) => r.protocolo)
    await eraseContent(tx, protocoloIn(protocolos), now, { subject: true })
    return protocolos
  })
  removeSandboxCopies(mailDir, erased)
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
