// The public status view, computed in the background every few seconds and served from memory,
// so a flood of GET /api/status never becomes a flood of database queries.
import type { Logger } from 'pino'
import type { Clock } from '../../platform/lib/clock.ts'
import type { ManutencaoOutT, ServicoOutT, StatusOutT } from './schemas.ts'

export type StatusSources = {
  ambiente: string
  versao: string
  /** Each check resolves (never rejects) with the service's state; `banco` decides `indisponivel`. */
  checks: (() => Promise<ServicoOutT>)[]
  maintenance: (now: Date) => Promise<ManutencaoOutT | null>
  clock: Clock
  log: Pick<Logger, 'warn'>
}

export function overallStatus(servicos: ServicoOutT[], manutencao: ManutencaoOutT | null): StatusOutT['status'] {
  if (manutencao?.em_curso) return 'manutencao'
  if (servicos.some((s) => s.nome === 'banco' && !s.ok)) return 'indisponivel'
  if (servicos.some((s) => !s.ok)) return 'degradado'
  return 'operacional'
}

export async function computeStatus(src: StatusSources): Promise<StatusOutT> {
  const now = src.clock.now()
  const servicos: ServicoOutT[] = [{ nome: 'api', ok: true, latencia_ms: null, modo: null }, ...await Promise.all(src.checks.map((c) => c()))]
  let manutencao: ManutencaoOutT | null = null
  try {
    manutencao = await src.maintenance(now)
  } catch (err) {
    // The database is down (and reported so in `banco`): no window can be read.
    src.log.warn({ code: (err as NodeJS.ErrnoException).code }, 'maintenance windows unavailable')
  }
  return { status: overallStatus(servicos, manutencao), ambiente: src.ambiente, versao: src.versao, servicos, manutencao, verificado_em: now.toISOString() }
}

export class StatusSnapshot {
  private latest: StatusOutT | undefined
  private inFlight: Promise<StatusOutT> | undefined
  private followUp: Promise<StatusOutT> | undefined
  private timer: NodeJS.Timeout | undefined
  private refreshedAt: Date | undefined

  private readonly src: StatusSources
  private readonly refreshMs: number
  constructor(src: StatusSources, refreshMs: number) {
    this.src = src
    this.refreshMs = refreshMs
  }

  /** The latest snapshot; the first call waits for the first computation. */
  async current(): Promise<StatusOutT> {
    return this.latest ?? this.inFlight ?? this.refresh()
  }

  /** When a computation last finished (the metrics' snapshot age); undefined before the first. */
  lastRefreshedAt(): Date | undefined {
    return this.refreshedAt
  }

  /**
   * A snapshot computed after this call began. One computation runs at a time; one asked for while another runs
   * (which may have read before the caller's change, a window just declared) runs once more after it, shared by
   * every caller who asked meanwhile.
   */
  refresh(): Promise<StatusOutT> {
    if (!this.inFlight) return this.compute()
    this.followUp ??= this.inFlight.catch(() => {}).then(() => {
      this.followUp = undefined
      return this.compute()
    })
    return this.followUp
  }

  private compute(): Promise<StatusOutT> {
    this.inFlight = computeStatus(this.src)
      .then((s) => { this.latest = s; this.refreshedAt = this.src.clock.now(); return s })
      .finally(() => { this.inFlight = undefined })
    return this.inFlight
  }

  start(): void {
    if (this.timer) return
    // The timer needs no follow-up: a computation already running is fresh enough for it.
    this.timer = setInterval(() => { if (!this.inFlight) void this.compute().catch(() => {}) }, this.refreshMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.followUp?.catch(() => {})
    await this.inFlight?.catch(() => {})
  }
}
