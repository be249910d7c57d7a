// Maintenance windows declared by an operator. `manutencao` in /api/status shows the window in progress,
// else the nearest upcoming one, else null.
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm'
import type { Orm } from '../../platform/db/database.ts'
import { DomainError } from '../../platform/http/domain-error.ts'
import { manutencao } from '../../platform/db/schema.ts'
import type { ManutencaoOutT } from './schemas.ts'

export type Window = typeof manutencao.$inferSelect
export type NewWindow = { inicio: Date | null, fim: Date | null, mensagem: string | null }

/** A window that ends before it starts, or has ended already. */
export class InvalidWindowError extends DomainError<'entrada_recusada'> {
  constructor(message: string) { super('entrada_recusada', message) }
}

export async function declareWindow(orm: Orm, w: NewWindow, now: Date): Promise<Window> {
  if (w.inicio && w.fim && w.fim <= w.inicio) throw new InvalidWindowError('fim must be after inicio')
  if (w.fim && w.fim <= now) throw new InvalidWindowError('fim is already past')
  const [row] = await orm.insert(manutencao).values({ ...w, declaradaEm: now }).returning()
  return row!
}

export async function endWindow(orm: Orm, id: number, now: Date): Promise<Window | undefined> {
  const [row] = await orm.update(manutencao).set({ encerradaEm: now })
    .where(and(eq(manutencao.id, id), isNull(manutencao.encerradaEm))).returning()
  return row
}

/** Windows not ended and not yet over, soonest first. */
export async function openWindows(orm: Orm, now: Date): Promise<Window[]> {
  return orm.select().from(manutencao)
    .where(and(isNull(manutencao.encerradaEm), or(isNull(manutencao.fim), gt(manutencao.fim, now))))
    .orderBy(asc(manutencao.inicio), asc(manutencao.id))
}

export function isInProgress(w: Window, now: Date): boolean {
  return (w.inicio === null || w.inicio <= now) && (w.fim === null || w.fim > now) && w.encerradaEm === null
}

export function describeWindow(w: Window, now: Date): ManutencaoOutT {
  return {
    inicio: w.inicio?.toISOString() ?? null,
    fim: w.fim?.toISOString() ?? null,
    mensagem: w.mensagem,
    em_curso: isInProgress(w, now),
    // Planned (declared before it began) rather than an emergency declared mid-incident.
    anunciada: w.inicio !== null && w.declaradaEm < w.inicio,
  }
}

export function pickWindow(windows: Window[], now: Date): Window | undefined {
  return windows.find((w) => isInProgress(w, now)) ?? windows.find((w) => w.inicio !== null && w.inicio > now)
}
