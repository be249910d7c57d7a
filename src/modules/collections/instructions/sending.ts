// Sending instructions through the bank's API (issue 33: "the sandbox bank down or slow loses no instruction"): a
// worker takes the `api` instructions due (instrucoes_a_enviar, migration 0040: a charge's in the order asked), asks
// the bank through its adapter outside any transaction (bank/ask.ts), and records the answer: `confirmada` or
// `rejeitada` with the bank's body kept. A bank down or slow leaves the instruction pending, its attempt counted and
// its next one due after the backoff; the later instructions of its charge wait behind it.
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../platform/db/database.ts'
import type { Job } from '../../../platform/jobs/job.ts'
import type { PedidoDeInstrucao } from '../bank/adapter.ts'
import { askEach, bankJob, type AskDeps } from '../bank/ask.ts'
import type { Banco } from '../boleto/bancos.ts'
import { instructionConfirmed } from './effects.ts'
import { instructionRows, postpone, recordAnswer } from './store.ts'

export type SendingDeps = AskDeps

export interface Sent { confirmadas: number, rejeitadas: number, adiadas: number }

type Rows = NonNullable<Awaited<ReturnType<typeof instructionRows>>>

function pedidoOf(r: Rows): PedidoDeInstrucao {
  return {
    id: r.i.id,
    conta: { banco: r.conta.banco as Banco, agencia: r.conta.agencia, conta: r.conta.conta, contaDigito: r.conta.contaDigito, carteira: r.conta.carteira,
      ...(r.conta.convenio ? { convenio: r.conta.convenio } : {}) },
    nossoNumero: r.nossoNumero, instrucao: r.i.instrucao,
    ...(r.i.vencimento ? { vencimento: r.i.vencimento } : {}),
    ...(r.i.abatimentoCentavos === null ? {} : { abatimentoCentavos: BigInt(r.i.abatimentoCentavos) }),
  }
}

/** One pass: every instruction due now, each asked of its bank once. */
export async function sendDue(deps: SendingDeps, now: Date): Promise<Sent> {
  const due = await queryRows<{ cliente_id: string, id: string }>(deps.db.orm,
    sql`SELECT cliente_id, id FROM instrucoes_a_enviar(${deps.batch ?? 100}, ${now.toISOString()}::timestamptz)`)
  // A charge whose instruction was put off in this pass has its later ones wait too (the function saw only the first).
  const held = new Set<string>()
  const r = await askEach(deps, due, now, {
    read: async (tx, id) => {
      const rows = await instructionRows(tx, id)
      return rows?.i.estado === 'pendente' && !held.has(rows.i.cobrancaId) ? rows : undefined
    },
    banco: (rows) => rows.conta.banco as Banco,
    attempts: (rows) => rows.i.tentativas,
    ask: (adapter, rows) => adapter.instruir(pedidoOf(rows)),
    answered: async (tx, id, answer) => {
      if (!answer.ok) return recordAnswer(tx, id, 'rejeitada', { codigo: answer.codigo, motivo: answer.motivo, resposta: answer.resposta }, now)
      await recordAnswer(tx, id, 'confirmada', (answer.resposta ?? {}) as Record<string, unknown>, now)
      await instructionConfirmed(tx, id, now)
    },
    postponed: async (tx, id, rows, next, motivo) => {
      held.add(rows.i.cobrancaId)
      await postpone(tx, id, next, motivo, now)
    },
  })
  return { confirmadas: r.respondidas, rejeitadas: r.recusadas, adiadas: r.adiadas }
}

/** The worker as a platform job (bank/ask.ts). */
export const sendingJob = (deps: SendingDeps): Job => bankJob('cobrancas-instrucoes', (now) => sendDue(deps, now))
