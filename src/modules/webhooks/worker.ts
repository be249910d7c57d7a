// The webhooks' delivery worker (issue 34). Several slots run at once, each claiming one delivery at a time through
// webhook_reserva (migration 0048: across customers, FOR UPDATE SKIP LOCKED, in order per resource, at most
// PER_ENDPOINT in flight per endpoint, so a receiver that hangs holds that many slots and never all of them), POSTing
// it outside any transaction, and recording the try in the customer's transaction. A 2xx is delivered; anything
// else is tried again after an exponential backoff with jitter; an endpoint whose every try failed for a day is
// turned off and the customer's administradores told by e-mail. A process killed mid-delivery leaves the delivery
// `enviando`: its lease runs out and another slot sends it again (at least once; the receiver deduplicates by the
// event's id).
import { sql } from 'drizzle-orm'
import { queryRows, type Database, type Orm } from '../../platform/db/database.ts'
import { errorFacts } from '../../platform/lib/log-safety.ts'
import { enqueueMessage } from '../../platform/outbox/enqueue.ts'
import { retryDelayMs } from '../../platform/outbox/policy.ts'
import { appendAudit, OPERATOR } from '../../platform/tenancy/audit/store.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import { eventBody } from './body.ts'
import { holdQueue } from './store.ts'
import type { SecretBox } from './secret-box.ts'
import type { Sender, SendResult } from './sender.ts'
import { signatureHeader } from './signature.ts'

export type WebhookWorkerDeps = {
  db: Database
  send: Sender
  box: SecretBox
  retry: { baseMs: number, maxMs: number }
  /** How long a claimed delivery is its slot's: past it, another takes it (longer than a try's timeout). */
  leaseMs: number
  log: { info(f: object, m: string): void, warn(f: object, m: string): void, error(f: object, m: string): void }
  slots?: number
  pollMs?: number
  /** [0, 1): the jitter's source. */
  random?: () => number
  /** The service's address, for the e-mail that tells an endpoint was turned off. */
  publicUrl: string
}

/** How long a stop waits for the tries in hand. */
const STOP_WAIT_MS = 3_000

/**
 * Deliveries one endpoint, and one customer, may have in flight at once (of the default eight slots): an endpoint that
 * hangs holds four, so its customer's other endpoints still have two; a customer whose endpoints all hang holds six,
 * and the other customers' deliveries still have two slots.
 */
export const PER_ENDPOINT = 4
export const PER_CUSTOMER = 6
/** A claim that takes longer than this is given up by the database itself, not only by the pool (it would run on). */
const CLAIM_TIMEOUT_MS = 5_000
/** After this long of failed tries, an endpoint is turned off. */
export const FAILING_FOR_MS = 86_400_000

type Claimed = {
  id: string, cliente_id: string, webhook_id: string, tentativas: number, url: string, segredo_cifrado: string, segredo_anterior_cifrado: string | null,
  evento_id: string, tipo: string, criado_em: string | Date, dados: unknown
}

export class WebhookWorker {
  private running = false
  private loops: Promise<void>[] = []
  private wakers = new Set<() => void>()
  private unlisten: (() => Promise<void>) | undefined
  private poll: NodeJS.Timeout | undefined
  private readonly deps: WebhookWorkerDeps
  constructor(deps: WebhookWorkerDeps) { this.deps = deps }

  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      this.unlisten = await this.deps.db.listen('webhooks', () => this.wakeAll())
    } catch (err) {
      this.deps.log.warn({ code: (err as NodeJS.ErrnoException).code }, 'webhook notifications unavailable; polling only')
    }
    // One slot looks on a timer (retries come due without a notification); a slot that found work wakes another.
    this.poll = setInterval(() => this.wakeOne(), this.deps.pollMs ?? 1000)
    this.loops = Array.from({ length: this.deps.slots ?? 8 }, () => this.run())
  }

  async stop(): Promise<void> {
    this.running = false
    clearInterval(this.poll)
    this.wakeAll()
    // A try in hand may wait for its receiver up to WEBHOOK_TIMEOUT_MS, past the process's grace: given up after
    // STOP_WAIT_MS, its delivery keeps its lease and is sent again when the lease ends, as after a crash.
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.all(this.loops), new Promise((resolve) => { timer = setTimeout(resolve, STOP_WAIT_MS) })])
    clearTimeout(timer)
    this.loops = []
    await this.unlisten?.().catch(() => {})
    this.unlisten = undefined
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake()
  }

  private wakeOne(): void {
    const first = this.wakers.values().next()
    if (!first.done) first.value()
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false
      try {
        worked = await this.once()
      } catch (err) {
        this.deps.log.warn(errorFacts(err), 'webhook delivery pass failed; will retry')
      }
      if (!this.running) break
      if (worked) {
        this.wakeOne()
        continue
      }
      await new Promise<void>((resolve) => {
        const wake = () => { this.wakers.delete(wake); resolve() }
        this.wakers.add(wake)
      })
    }
  }

  /** Delivers every delivery due now, one slot; answers how many tries it made (tests and the bench drive it). */
  async drain(): Promise<number> {
    let n = 0
    while (await this.once()) n++
    return n
  }

  /** Claims and delivers one; false when none may go now. */
  async once(): Promise<boolean> {
    const [row] = await this.deps.db.orm.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${CLAIM_TIMEOUT_MS}`))
      return queryRows<Claimed>(tx, sql`SELECT * FROM webhook_reserva(${this.deps.leaseMs}, ${PER_ENDPOINT}, ${PER_CUSTOMER})`)
    })
    if (!row) return false
    const result = await this.send(row)
    await this.recordDurably(row, result)
    return true
  }

  private async send(row: Claimed): Promise<SendResult> {
    const owner = { clienteId: row.cliente_id, webhookId: row.webhook_id }
    let secrets: string[]
    try {
      secrets = [row.segredo_cifrado, ...(row.segredo_anterior_cifrado ? [row.segredo_anterior_cifrado] : [])].map((s) => this.deps.box.open(s, owner))
    } catch {
      // Sealed under another key (WEBHOOK_SECRET_KEY changed): nothing is sent unsigned; the customer rotates the secret.
      return { status: null, error: 'o segredo de assinatura não pôde ser lido: troque o segredo do webhook', ms: 0 }
    }
    const body = eventBody({ id: row.evento_id, tipo: row.tipo, criadoEm: new Date(row.criado_em), dados: row.dados })
    // The receiver checks `t` against its own clock: the wall's, always.
    const t = Math.floor(Date.now() / 1000)
    return this.deps.send(row.url, body, { 'webhook-id': row.evento_id, 'webhook-signature': signatureHeader(body, t, secrets) })
  }

  private async recordDurably(row: Claimed, result: SendResult): Promise<void> {
    for (let wait = 200; ; wait = Math.min(wait * 2, 10_000)) {
      try {
        await this.record(row, result)
        return
      } catch (err) {
        this.deps.log.warn({ ...errorFacts(err), entrega: row.id }, 'could not record a webhook delivery; retrying')
        // Stopping gives up the write: the lease hands the delivery to another try.
        if (!this.running && this.loops.length) return
        await new Promise((r) => setTimeout(r, wait))
      }
    }
  }

  private async record(row: Claimed, result: SendResult): Promise<void> {
    const ok = result.status !== null && result.status >= 200 && result.status < 300
    const status = result.status !== null && result.status >= 100 && result.status <= 599 ? result.status : null
    const erro = ok ? null : result.status === null ? result.error : `HTTP ${result.status}`
    const waitMs = ok ? 0 : retryDelayMs(row.tentativas, { retryBaseMs: this.deps.retry.baseMs, retryMaxMs: this.deps.retry.maxMs }, this.deps.random)
    await withTenant(this.deps.db, row.cliente_id, async (tx) => {
      // Only while the claim is still ours: a slot whose lease ran out must not overwrite a newer try.
      // A failed try waits again, held (`retida`) where its endpoint was turned off meanwhile.
      const mine = await queryRows<{ id: string }>(tx, sql`UPDATE webhook_entregas SET
          estado = CASE WHEN ${ok} THEN 'entregue'
                        WHEN (SELECT ativo FROM webhooks WHERE id = ${row.webhook_id}::uuid) THEN 'pendente' ELSE 'retida' END,
          entregue_em = CASE WHEN ${ok} THEN clock_timestamp() END,
          proxima_em = clock_timestamp() + make_interval(secs => ${waitMs} / 1000.0),
          ultimo_status = ${status}, ultimo_erro = ${erro}, atualizado_em = clock_timestamp()
        WHERE id = ${row.id}::uuid AND estado = 'enviando' AND tentativas = ${row.tentativas} RETURNING id`)
      if (mine.length === 0) return
      await tx.execute(sql`INSERT INTO webhook_tentativas (cliente_id, entrega_id, numero, em, status_http, latencia_ms, erro, resposta)
        VALUES (${row.cliente_id}::uuid, ${row.id}::uuid, ${row.tentativas}, clock_timestamp(), ${status}, ${Math.max(0, result.ms)},
          ${erro?.slice(0, 500) ?? null}, ${'body' in result && result.body ? clean(result.body) : null})`)
      if (ok) {
        await tx.execute(sql`UPDATE webhooks SET falhando_desde = NULL WHERE id = ${row.webhook_id}::uuid AND falhando_desde IS NOT NULL`)
        return
      }
      // The resource's later events wait for this one: not due before it, so the claim does not read them meanwhile.
      await tx.execute(sql`UPDATE webhook_entregas SET proxima_em = clock_timestamp() + make_interval(secs => ${waitMs} / 1000.0)
        WHERE webhook_id = ${row.webhook_id}::uuid AND recurso = (SELECT recurso FROM webhook_entregas WHERE id = ${row.id}::uuid)
          AND estado = 'pendente' AND id <> ${row.id}::uuid AND proxima_em < clock_timestamp() + make_interval(secs => ${waitMs} / 1000.0)`)
      const [w] = await queryRows<{ vencido: boolean }>(tx, sql`UPDATE webhooks SET falhando_desde = COALESCE(falhando_desde, clock_timestamp())
        WHERE id = ${row.webhook_id}::uuid
        RETURNING ativo AND falhando_desde <= clock_timestamp() - make_interval(secs => ${FAILING_FOR_MS} / 1000.0) AS vencido`)
      if (w?.vencido) await this.turnOff(tx, row)
    })
    this.deps.log.info({ entrega: row.id, webhook: row.webhook_id, tentativa: row.tentativas, status: result.status, ok, ms: result.ms },
      'webhook delivery')
  }

  /** A day of failures: the endpoint is turned off (its deliveries wait) and its customer's administradores e-mailed. */
  private async turnOff(tx: Orm, row: Claimed): Promise<void> {
    const now = new Date()
    await tx.execute(sql`UPDATE webhooks SET ativo = false, motivo_desativacao = 'falhas', desativado_em = clock_timestamp(),
      atualizado_em = clock_timestamp() WHERE id = ${row.webhook_id}::uuid AND ativo`)
    await holdQueue(tx, row.webhook_id)
    await appendAudit(tx, row.cliente_id, { actor: OPERATOR, now }, 'webhook.desativado', { alvoId: row.webhook_id })
    const admins = await queryRows<{ email: string }>(tx, sql`SELECT email FROM usuarios WHERE papel = 'administrador' AND estado = 'ativo'`)
    const host = (() => { try { return new URL(row.url).host } catch { return row.url } })()
    for (const a of admins) {
      await enqueueMessage(tx, {
        kind: 'webhook_desativado', name: { prefix: 'WH' }, to: a.email, requestId: `webhook-${row.webhook_id}`, clienteId: row.cliente_id,
        subject: 'Webhook desativado depois de um dia de falhas',
        text: [
          `O webhook que entrega eventos em ${host} foi desativado: todas as tentativas de entrega falharam nas últimas 24 horas.`,
          '',
          'As entregas que esperavam, e as dos eventos que acontecerem enquanto ele estiver desativado, ficam guardadas e saem,',
          'na ordem, quando o webhook for reativado:',
          `PATCH ${this.deps.publicUrl}/api/webhooks/${row.webhook_id} com {"ativo": true}.`,
        ].join('\n'),
      }, { now: () => now })
    }
    this.deps.log.warn({ webhook: row.webhook_id, cliente: row.cliente_id }, 'webhook turned off after a day of failed deliveries')
  }
}

/** The receiver's answer as kept: text without NUL (PostgreSQL's text holds none), at most 1,000 characters. */
const clean = (s: string) => s.replaceAll('\u0000', '').slice(0, 1000)
