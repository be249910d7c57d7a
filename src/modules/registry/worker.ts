// The registry's worker (issue 34): each request due (registro_pedidos_a_enviar, migration 0050: across customers,
// each título's in order) is read in its customer's transaction, sent to the registradora outside any (or, taken
// earlier, read back under its protocol), and its answer recorded in another: taken (read back after REGISTRADORA_POLL_MS
// unless the callback comes first), done, or refused, each mirrored per título. A registradora down or slow loses
// nothing: the request keeps waiting, its next try after an exponential backoff with jitter, under the same id, which
// the registradora answers with its first answer: an assignment is registered once however often it is sent.
import { sql } from 'drizzle-orm'
import type { Database } from '../../platform/db/database.ts'
import { queryRows } from '../../platform/db/database.ts'
import type { Job } from '../../platform/jobs/job.ts'
import { retryDelayMs } from '../../platform/outbox/policy.ts'
import { withTenant } from '../../platform/tenancy/tenancy.ts'
import type { PedidoRegistro, RegistradoraAdapter, Resposta } from './adapter.ts'
import type { RegistradoraConfig } from './settings.ts'
import { pedidoToSend, recordDone, recordPostponed, recordRefused, recordTaken, type PedidoToSend } from './store.ts'

export interface RegistryDeps {
  db: Pick<Database, 'orm'>
  /** The registradora's adapter, or none where none is configured (requests wait, saying so). */
  adapter: () => RegistradoraAdapter | undefined
  config: Pick<RegistradoraConfig, 'retry' | 'pollMs'>
  /** [0, 1): the jitter's source (tests fix it). */
  random?: () => number
  batch?: number
}

const NO_CNPJ = 'a empresa não tem CNPJ cadastrado: a registradora o exige do cessionário'

export interface RegistryPass { concluidos: number, recusados: number, processando: number, adiados: number }

function pedidoOf(p: PedidoToSend): PedidoRegistro {
  return {
    id: p.id, tipo: p.tipo,
    duplicata: { numero: p.numero, chaveNfe: p.chave_nfe, emissao: p.emissao, vencimento: p.vencimento, valorCentavos: BigInt(p.valor_face_centavos),
      sacador: p.cedente_documento, sacado: p.sacado_documento },
    cessionario: { documento: p.cliente_documento ?? '', nome: p.cliente_nome },
  }
}

/** One request: sent (or read back), its answer recorded; what became of it. */
async function handle(deps: RegistryDeps, clienteId: string, id: string, now: Date): Promise<keyof RegistryPass | undefined> {
  const p = await withTenant(deps.db, clienteId, (tx) => pedidoToSend(tx, id))
  if (!p) return undefined
  const adapter = deps.adapter()
  let answer: Resposta
  if (!adapter) answer = { ok: false, tipo: 'indisponivel', motivo: 'nenhuma registradora configurada (REGISTRADORA_URL)' }
  else if (!p.cliente_documento) answer = { ok: false, tipo: 'indisponivel', motivo: NO_CNPJ }
  else answer = p.estado === 'processando' && p.protocolo ? await adapter.situacao(p.protocolo) : await adapter.enviar(pedidoOf(p))
  return withTenant(deps.db, clienteId, async (tx) => {
    // Answered meanwhile (the callback and the poll at once): the first to record it wins; the other records nothing.
    const still = await pedidoToSend(tx, id)
    if (!still) return undefined
    if (answer.ok && answer.situacao === 'processando') {
      await recordTaken(tx, still, answer.protocolo, answer.resposta, new Date(now.getTime() + deps.config.pollMs), now)
      return 'processando'
    }
    if (answer.ok) {
      await recordDone(tx, still, answer.protocolo, answer.consulta, answer.resposta, now)
      return 'concluidos'
    }
    if (answer.tipo === 'recusada') {
      await recordRefused(tx, still, answer.codigo, answer.motivo, answer.resposta, now)
      return 'recusados'
    }
    await recordPostponed(tx, still, new Date(now.getTime() + backoff(deps, still.tentativas)), answer.motivo, now, answer.reenviar === true)
    return 'adiados'
  })
}

/**
 * One request, whatever goes wrong with it: an answer the service cannot keep (a value the database refuses, a protocol
 * another request holds) postpones that request alone, with its error, instead of stopping the pass on it at every
 * pass, every other customer's requests behind it.
 */
async function handleSafely(deps: RegistryDeps, clienteId: string, id: string, now: Date): Promise<keyof RegistryPass | undefined> {
  try {
    return await handle(deps, clienteId, id, now)
  } catch (err) {
    await withTenant(deps.db, clienteId, async (tx) => {
      const p = await pedidoToSend(tx, id)
      const why = `resposta que o serviço não pôde guardar (${(err as Error).name})`
      if (p) await recordPostponed(tx, p, new Date(now.getTime() + backoff(deps, p.tentativas)), why, now)
    }).catch(() => {})
    return 'adiados'
  }
}

/** The wait before a request's next try, after `tentativas` tries: exponential, with jitter, capped. */
const backoff = (deps: RegistryDeps, tentativas: number): number =>
  retryDelayMs(tentativas + 1, { retryBaseMs: deps.config.retry.baseMs, retryMaxMs: deps.config.retry.maxMs }, deps.random)

/** How long a pass takes requests for: with one registradora timeout more, within the job's lease. */
const PASS_BUDGET_MS = 10 * 60_000

/** One pass: every request due now, each sent or read back once (those past the pass's time budget wait for the next). */
export async function registryDue(deps: RegistryDeps, now: Date): Promise<RegistryPass> {
  const due = await queryRows<{ cliente_id: string, id: string }>(deps.db.orm,
    sql`SELECT cliente_id, id FROM registro_pedidos_a_enviar(${deps.batch ?? 100}, ${now.toISOString()}::timestamptz)`)
  const out: RegistryPass = { concluidos: 0, recusados: 0, processando: 0, adiados: 0 }
  const started = Date.now()
  for (const { cliente_id: clienteId, id } of due) {
    if (Date.now() - started > PASS_BUDGET_MS) break
    const what = await handleSafely(deps, clienteId, id, now)
    if (what) out[what]++
  }
  return out
}

/**
 * The registradora's callback: the request of `protocolo` read back now. The callback is a hint, never believed: what
 * is recorded is what the registradora answers when asked; an unknown protocol asks nothing.
 */
export async function readBack(deps: RegistryDeps, protocolo: string, now: Date): Promise<boolean> {
  const [p] = await queryRows<{ cliente_id: string, id: string }>(deps.db.orm, sql`SELECT cliente_id, id FROM registro_pedido_do_protocolo(${protocolo})`)
  if (!p) return false
  await handleSafely(deps, p.cliente_id, p.id, now)
  return true
}

/** The worker as a platform job: every 10 seconds, in whichever instance finds it due. */
export const registryJob = (deps: RegistryDeps): Job => ({
  name: 'registro-pedidos',
  schedule: { everyMs: 10_000 },
  async run(now) {
    const r = await registryDue(deps, now)
    return r.concluidos + r.recusados + r.processando + r.adiados
  },
})
