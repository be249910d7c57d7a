// One pass of a worker that asks the bank about rows waiting for it (a charge's registration, an instruction): each
// row read in its customer's transaction, the bank asked outside any, and the answer recorded in another. A bank
// down or slow (or none configured) loses nothing: the row keeps waiting, its next attempt due after an exponential
// backoff with jitter; a refusal is final, with the bank's reason.
import type { Database, Orm } from '../../../platform/db/database.ts'
import type { Job } from '../../../platform/jobs/job.ts'
import { withTenant } from '../../../platform/tenancy/tenancy.ts'
import type { Banco } from '../boleto/bancos.ts'
import type { BankAdapter, Falha } from './adapter.ts'

export interface AskDeps {
  db: Pick<Database, 'orm'>
  /** The adapter of a bank's API, or none where the service has none configured (the row waits, saying so). */
  adapterFor(banco: Banco): BankAdapter | undefined
  retry: { baseMs: number, maxMs: number }
  /** [0, 1): the jitter's source (tests fix it). */
  random?: () => number
  batch?: number
}

type Refusal = Extract<Falha, { tipo: 'recusada' }>

export interface Asking<R, A extends { ok: true }> {
  /** The row as the bank is to be asked of it; undefined when it no longer waits. */
  read(tx: Orm, id: string): Promise<R | undefined>
  banco(r: R): Banco
  attempts(r: R): number
  ask(adapter: BankAdapter, r: R): Promise<A | Falha>
  answered(tx: Orm, id: string, answer: A | Refusal): Promise<void>
  postponed(tx: Orm, id: string, r: R, next: Date, motivo: string): Promise<void>
}

export interface Asked { respondidas: number, recusadas: number, adiadas: number }

/** The delay before attempt `n + 1` after `n` failures: base × 2ⁿ, at most max, then between half and all of it. */
export function backoffMs(n: number, retry: { baseMs: number, maxMs: number }, random: number): number {
  const full = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.min(n, 30))
  return Math.round(full / 2 + (full / 2) * random)
}

export async function askEach<R, A extends { ok: true }>(
  deps: AskDeps, due: readonly { cliente_id: string, id: string }[], now: Date, how: Asking<R, A>,
): Promise<Asked> {
  const out: Asked = { respondidas: 0, recusadas: 0, adiadas: 0 }
  for (const { cliente_id: clienteId, id } of due) {
    const r = await withTenant(deps.db, clienteId, (tx) => how.read(tx, id))
    if (r === undefined) continue
    const adapter = deps.adapterFor(how.banco(r))
    const answer: A | Falha = adapter
      ? await how.ask(adapter, r)
      : { ok: false, tipo: 'indisponivel', motivo: `nenhuma API configurada para o banco ${how.banco(r)}` }
    await withTenant(deps.db, clienteId, async (tx) => {
      if (answer.ok || answer.tipo === 'recusada') {
        await how.answered(tx, id, answer)
        if (answer.ok) out.respondidas++
        else out.recusadas++
      } else {
        const wait = backoffMs(how.attempts(r), deps.retry, (deps.random ?? Math.random)())
        await how.postponed(tx, id, r, new Date(now.getTime() + wait), answer.motivo)
        out.adiadas++
      }
    })
  }
  return out
}

/** A worker of the bank as a platform job: every 10 seconds, in whichever instance finds it due; counts what it asked. */
export function bankJob(name: string, pass: (now: Date) => Promise<object>): Job {
  return {
    name,
    schedule: { everyMs: 10_000 },
    async run(now) {
      return Object.values(await pass(now)).reduce((sum: number, n) => sum + (n as number), 0)
    },
  }
}
