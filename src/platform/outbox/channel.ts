// Whether this environment can really send e-mail: the mode, and an SMTP verify() done at start and
// periodically (cached, so probes and status never open SMTP connections themselves).
import type { Logger } from 'pino'
import type { Clock } from '../lib/clock.ts'

export type MailMode = 'smtp' | 'sandbox'

export type TransportState = { verificado: boolean, verificadoEm: Date | null }

export type MailChannelDeps = {
  mode: MailMode
  /** Resolves when the provider accepts a connection (and the login); unused in sandbox mode. */
  verify: () => Promise<unknown>
  clock: Clock
  reverifyMs: number
  /** AMBIENTE=producao: a sandbox there (MAIL_SANDBOX=on) delivers nothing, and health must say so. */
  deliveryExpected?: boolean
  log: Pick<Logger, 'warn' | 'info'>
}

export class MailChannel {
  private state: TransportState = { verificado: false, verificadoEm: null }
  private timer: NodeJS.Timeout | undefined

  private readonly deps: MailChannelDeps
  constructor(deps: MailChannelDeps) {
    this.deps = deps
  }

  get mode(): MailMode { return this.deps.mode }

  transport(): TransportState { return this.state }

  /** False when mail is expected to reach people and it cannot (the sandbox in production). */
  get fitForPurpose(): boolean { return this.deps.mode === 'smtp' || !this.deps.deliveryExpected }

  canSend(): boolean { return this.deps.mode === 'smtp' && this.state.verificado }

  async verifyNow(): Promise<TransportState> {
    if (this.deps.mode === 'sandbox') return this.state
    try {
      await this.deps.verify()
      this.state = { verificado: true, verificadoEm: this.deps.clock.now() }
    } catch (err) {
      // The code only: a provider's message can carry its host name.
      this.deps.log.warn({ code: (err as NodeJS.ErrnoException).code ?? 'unknown' }, 'SMTP transport could not be verified')
      this.state = { verificado: false, verificadoEm: this.state.verificadoEm }
    }
    return this.state
  }

  start(): void {
    if (this.deps.mode === 'sandbox' || this.timer) return
    void this.verifyNow()
    this.timer = setInterval(() => void this.verifyNow(), this.deps.reverifyMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }
}
