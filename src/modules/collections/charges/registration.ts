// Registering charges at their bank through its API (issue 33): a worker takes the charges waiting under accounts
// whose transport is `api` (cobrancas_a_registrar, migration 0038), asks the account's bank through its adapter
// (bank/adapter.ts) outside any transaction, and records the answer: registered with the cobv's BR Code, or rejected
// with the bank's reason. A bank that is down or slow loses nothing: the charge stays waiting, its attempt counted and
// its next one due after an exponential backoff with jitter; the bank takes the same nosso número again as the same
// registration, so a retry after a lost answer registers once.
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../platform/db/database.ts'
import type { Job } from '../../../platform/jobs/job.ts'
import type { PedidoDeRegistro } from '../bank/adapter.ts'
import { askEach, bankJob, type AskDeps } from '../bank/ask.ts'
import type { Banco } from '../boleto/bancos.ts'
import { boletoRows, recordRegistration, type BoletoRows } from './store.ts'

export { backoffMs } from '../bank/ask.ts'

export type RegistrationDeps = AskDeps

export interface Registered { registradas: number, rejeitadas: number, adiadas: number }

/** What the bank needs to register the charge, from the rows its boleto prints. */
function pedidoOf(r: BoletoRows): PedidoDeRegistro {
  const c = r.c
  return {
    conta: { banco: r.conta.banco as Banco, agencia: r.conta.agencia, conta: r.conta.conta, contaDigito: r.conta.contaDigito, carteira: r.conta.carteira,
      ...(r.conta.convenio ? { convenio: r.conta.convenio } : {}) },
    nossoNumero: c.nossoNumero, seuNumero: r.titulo.numero, vencimento: c.vencimento, valorCentavos: BigInt(c.valorCentavos),
    pagador: { documento: r.sacado.documento, nome: r.sacado.nome },
    // The BR Code names a city; the customer's register holds none yet.
    beneficiario: { documento: r.cliente.documento ?? '', nome: r.cliente.nome, cidade: 'BRASIL' },
    ...(c.jurosTipo === 'valor_dia' && c.jurosValorCentavos ? { jurosDiaCentavos: BigInt(c.jurosValorCentavos) } : {}),
    ...(Number(c.multaPercentual) > 0 ? { multa: c.multaPercentual } : {}),
    ...(c.descontoAte ? { desconto: { centavos: BigInt(c.descontoValorCentavos), ate: c.descontoAte } } : {}),
  }
}

/** One pass: every charge due for registration now, each asked of its bank once. */
export async function registerDue(deps: RegistrationDeps, now: Date): Promise<Registered> {
  const due = await queryRows<{ cliente_id: string, id: string }>(deps.db.orm,
    sql`SELECT cliente_id, id FROM cobrancas_a_registrar(${deps.batch ?? 100}, ${now.toISOString()}::timestamptz)`)
  const r = await askEach(deps, due, now, {
    read: async (tx, id) => {
      const rows = await boletoRows(tx, id)
      return rows?.c.estado === 'a_registrar' ? rows : undefined
    },
    banco: (rows) => rows.conta.banco as Banco,
    attempts: (rows) => rows.c.registroTentativas,
    ask: (adapter, rows) => adapter.registrar(pedidoOf(rows)),
    answered: async (tx, id, answer) => {
      await recordRegistration(tx, id, answer.ok ? 'registrada' : 'rejeitada', answer.ok
        ? { pixCopiaECola: answer.pix.copiaECola, pixLocation: answer.pix.location, bancoResposta: answer.resposta as Record<string, unknown>, now }
        : { pixCopiaECola: null, pixLocation: null, bancoResposta: { codigo: answer.codigo, motivo: answer.motivo, resposta: answer.resposta }, now })
    },
    postponed: async (tx, id, _rows, next, motivo) => {
      await tx.execute(sql`UPDATE cobrancas SET registro_tentativas = registro_tentativas + 1,
          registro_proxima_em = ${next.toISOString()}::timestamptz, registro_erro = ${motivo.slice(0, 500)}
        WHERE id = ${id}::uuid AND estado = 'a_registrar'`)
    },
  })
  return { registradas: r.respondidas, rejeitadas: r.recusadas, adiadas: r.adiadas }
}

/** The worker as a platform job (bank/ask.ts). */
export const registrationJob = (deps: RegistrationDeps): Job => bankJob('cobrancas-registro', (now) => registerDue(deps, now))
