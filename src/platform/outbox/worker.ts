// The delivery worker: claims outbox rows of every kind (FOR UPDATE SKIP LOCKED, so instances never share one;
// see claim.ts), hands each to the transport its row names, and records every attempt. It never asks what a
// message is about: its producer rendered it when it queued it. New rows wake it through NOTIFY; a poll covers
// retries that come due.
import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Clock } from '../lib/clock.ts'
import { queryRows, type Database } from '../db/database.ts'
import { errorFacts } from '../lib/log-safety.ts'
import { auditoria, entregaTentativa } from '../db/schema.ts'
import { claimNext, unsendable, type Claimed } from './claim.ts'
import { emailDelivery } from './email.ts'
import type { MailConfig } from './mail-config.ts'
import { messageIdFor } from './message-id.ts'
import { classifyFailure, retryDelayMs, type Failure } from './policy.ts'
import type { MailTransport, Sent } from './transport.ts'

/** Sends one claimed row whose content is there; a rejection is a failed attempt (classifyFailure). */
export type Delivery = (row: Claimed) => Promise<Sent>

/** The worker's transports, keyed by the `transporte` a row names. */
export type Transports = Partial<Record<string, Delivery>>

export type WorkerDeps = {
  db: Database
  /** Where e-mail goes: the registry's `smtp`. */
  transport: MailTransport
  mailFrom: string
  /** The registry itself, when given (a test's); by default `smtp` alone, through `transport`. */
  transports?: Transports
  clock: Clock
  config: Pick<MailConfig, 'maxTries' | 'retryBaseMs' | 'retryMaxMs' | 'leaseMs' | 'pollMs'>
  log: Pick<Logger, 'info' | 'warn' | 'error'>
  /** Told the result of every attempt this worker records (the metrics' delivery outcomes). */
  onOutcome?: (outcome: Outcome) => void
}

export type Outcome = 'enviado' | 'sandbox' | 'adiado' | 'falhou'

/** How long a stop waits for the message in hand (the process's whole grace is 10 s, the HTTP drain 5 s of it). */
const STOP_WAIT_MS = 3_000

export class DeliveryWorker {
  private running = false
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private unlisten: (() => Promise<void>) | undefined

  private readonly transports: Transports

  private readonly deps: WorkerDeps
  constructor(deps: WorkerDeps) {
    this.deps = deps
    this.transports = deps.transports ?? { smtp: emailDelivery(deps.transport, deps.mailFrom) }
  }

  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      this.unlisten = await this.deps.db.listen('outbox', () => this.wakeUp?.())
    } catch (err) {
      this.deps.log.warn({ code: (err as NodeJS.ErrnoException).code }, 'outbox notifications unavailable; polling only')
    }
    this.loop = this.run()
  }

  /**
   * Finishes the message in hand, then stops; waits at most `waitMs` for it. A send that hangs on a silent SMTP
   * server would otherwise hold the process past its grace (exit 1): given up, the row keeps its lease and
   * another attempt takes it when the lease ends, as after a crash.
   */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    this.running = false
    this.wakeUp?.()
    let timer: NodeJS.Timeout | undefined
    const finished = await Promise.race([
      this.loop?.then(() => true),
      new Promise<false>((resolve) => { timer = setTimeout(resolve, waitMs, false) }),
    ])
    clearTimeout(timer)
    if (finished === false) this.deps.log.warn({ waitMs }, 'stopping with a message still being sent: its lease hands it to a later attempt')
    await this.unlisten?.().catch(() => {})
    this.unlisten = undefined
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.drain()
      } catch (err) {
        this.deps.log.warn(errorFacts(err), 'delivery pass failed; will retry')
      }
      if (!this.running) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.config.pollMs)
        this.wakeUp = () => { clearTimeout(timer); resolve() }
      })
      this.wakeUp = undefined
    }
  }

  /** Delivers every row that is due now; returns how many attempts it made. */
  async drain(): Promise<number> {
    let attempts = 0
    for (;;) {
      if (this.loop && !this.running) break
      const row = await this.claim()
      if (!row) break
      await this.deliver(row)
      attempts++
    }
    return attempts
  }

  private claim(): Promise<Claimed | undefined> {
    return claimNext(this.deps.db.orm, this.deps.clock.now(), this.deps.config.leaseMs)
  }

  private async deliver(row: Claimed): Promise<Outcome> {
    const nothing = unsendable(row, this.deps.clock.now())
    if (nothing) return this.record(row, { permanent: true, codigo: null, erro: nothing })
    const send = Object.hasOwn(this.transports, row.transporte) ? this.transports[row.transporte] : undefined
    // A row of a release that has a transport this one lacks: tried again later (an instance of that release may
    // take it), and failed for good after the last try, like any delivery that keeps failing.
    if (!send) return this.recordDurably(row, { permanent: false, codigo: null, erro: `no "${row.transporte}" transport in this worker` })
    let sent: Sent
    try {
      sent = await send(row)
    } catch (err) {
      return this.recordDurably(row, classifyFailure(err))
    }
    // Sent: from here on a database error must never turn into a second send.
    return this.recordDurably(row, sent)
  }

  /** Records the outcome, retrying the write (not the send) while the database is unreachable. */
  private async recordDurably(row: Claimed, result: Sent | Failure): Promise<Outcome> {
    for (let wait = 200; ; wait = Math.min(wait * 2, 10_000)) {
      try {
        return await this.record(row, result)
      } catch (err) {
        this.deps.log.warn({ ...errorFacts(err), protocolo: row.protocolo, reqId: row.requestId }, 'could not record a delivery outcome; retrying')
        // Stopping gives up the write: the lease then hands the row to another attempt.
        if (this.loop && !this.running) return 'adiado'
        await new Promise((r) => setTimeout(r, wait))
      }
    }
  }

  private async record(row: Claimed, result: Sent | Failure): Promise<Outcome> {
    const now = this.deps.clock.now()
    const messageId = messageIdFor(row.protocolo, this.deps.mailFrom)
    let outcome: Outcome
    let next: Date | null = null
    if ('estado' in result) outcome = result.estado
    else if (result.permanent || row.tentativas >= this.deps.config.maxTries) outcome = 'falhou'
    else {
      outcome = 'adiado'
      next = new Date(now.getTime() + retryDelayMs(row.tentativas, this.deps.config))
    }
    const failure = 'estado' in result ? null : result
    // A message keeps its content only while it may still be sent: it goes once delivered, or once expired. A
    // sandbox copy is the sandbox's mailbox: it stays until its expiry or its producer's retention erases it.
    const erase = outcome === 'enviado' || (row.expiraEm !== null && row.expiraEm.getTime() <= now.getTime())
    let recorded = false
    await this.deps.db.orm.transaction(async (tx) => {
      // Only while the claim is still ours: a worker whose lease ran out must not overwrite a newer attempt.
      const updated = await queryRows<{ id: number }>(tx, sql`
        UPDATE outbox SET
          estado = ${outcome === 'adiado' ? 'pendente' : outcome},
          atualizado_em = ${now},
          proxima_tentativa_em = COALESCE(${next}::timestamptz, proxima_tentativa_em),
          enviado_em = CASE WHEN ${failure === null} THEN ${now}::timestamptz ELSE enviado_em END,
          eml = CASE WHEN ${erase} THEN NULL ELSE COALESCE(${'estado' in result ? result.eml : null}::text, eml) END,
          texto = CASE WHEN ${erase} THEN NULL ELSE texto END,
          html = CASE WHEN ${erase} THEN NULL ELSE html END,
          cabecalhos = CASE WHEN ${erase} THEN NULL ELSE cabecalhos END,
          anexos = CASE WHEN ${erase} THEN NULL ELSE anexos END,
          conteudo_apagado_em = CASE WHEN ${erase} THEN COALESCE(conteudo_apagado_em, ${now}::timestamptz) ELSE conteudo_apagado_em END,
          message_id = ${messageId},
          ultimo_erro = ${failure?.erro ?? null}
        WHERE id = ${row.id} AND estado = 'enviando' AND tentativas = ${row.tentativas}
        RETURNING id`)
      if (updated.length === 0) return
      recorded = true
      await tx.insert(entregaTentativa).values({
        outboxId: row.id, em: now, resultado: outcome, codigoSmtp: failure?.codigo ?? null, erro: failure?.erro ?? null,
      })
      if (outcome !== 'adiado') {
        await tx.insert(auditoria).values({
          em: now, acao: `${row.tipo}.${outcome === 'falhou' ? 'entrega_falhou' : 'entregue'}`, protocolo: row.protocolo, requestId: row.requestId,
        })
      }
    })
    // Counted once it is the database's truth: a write lost to a newer claim is that claim's outcome.
    if (recorded) this.deps.onOutcome?.(outcome)
    const log = outcome === 'falhou' ? this.deps.log.error.bind(this.deps.log)
      : outcome === 'adiado' ? this.deps.log.warn.bind(this.deps.log)
        : this.deps.log.info.bind(this.deps.log)
    // Never the message itself: an invitation's parts hold its link, a contact's a visitor's personal data.
    log({
      reqId: row.requestId, protocolo: row.protocolo, tipo: row.tipo, transporte: row.transporte, tentativa: row.tentativas, resultado: outcome,
      codigo_smtp: failure?.codigo ?? undefined, proxima: next?.toISOString(),
    }, 'message delivery')
    return outcome
  }
}
