// A customer ready to take a borderô through the API: people with roles and their tokens, a product with the
// acceptance example's terms, a cedente with a bank account, sacados in São Paulo (no holiday of its own), and a
// clock the test sets (the example's date, 2026-10-05, is in the past).
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { createToken } from '../../../src/modules/credentials/tokens/store.ts'
import { setRole } from '../../../src/modules/credentials/users/role.ts'
import type { Papel } from '../../../src/modules/credentials/roles.ts'
import type { Scope } from '../../../src/modules/credentials/scopes.ts'
import { systemClock, type Clock } from '../../../src/platform/lib/clock.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import type { App } from '../../../src/app.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { activeUser, customer, operatorNow } from '../../helpers/credentials.ts'

/** A clock the test moves. */
export const settableClock = (iso: string): Clock & { set(iso: string): void } => {
  let now = new Date(iso)
  return { now: () => new Date(now), set: (to: string) => { now = new Date(to) } }
}

/** Noon in Brasília on the example's date. */
export const EXAMPLE_NOW = '2026-10-05T15:00:00Z'

export const EXAMPLE_PRODUCT = {
  nome: 'Duplicatas 3,5%', base: 'simples_30', taxa_mensal: '0.035', taxa_ad_valorem: '0.003', tarifa_por_titulo_centavos: 800, tac_centavos: 15_000,
  dias_float: { duplicata_mercantil: 2, duplicata_servico: 2, cheque: 2, nota_promissoria: 2, ccb: 2, cte: 2 }, iof: 'calcular',
}

export const CEDENTE_DOC = '11222333000181'
export const CONTA = { banco: '341', agencia: '1234', conta: '567890', digito: '1' }
/** São Paulo's IBGE code. */
export const SAO_PAULO = '3550308'

const ALL: Scope[] = ['conta', 'cadastro', 'operacoes', 'aprovacao', 'financeiro', 'cobranca', 'webhooks']

export type Caller = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>

const callerOf = (app: App, token: string): Caller => (method, url, payload, headers) =>
  bearer(app, token, method as 'GET', url, { ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) })

/** Money steps need a key: a fresh one per call unless given. */
export const key = (k: string = randomUUID()) => ({ 'idempotency-key': k })

// Everything below is made at `clock`'s now: the app's clock, so that a token made for a test dated in the past
// (or in a future the machine has not reached) is valid at the time the app reads it.
export async function person(
  db: Database, clienteId: string, papel: Papel, app: App, clock: Clock = systemClock,
): Promise<{ usuarioId: string, call: Caller }> {
  const u = await activeUser(db, clienteId, undefined, clock.now())
  if (papel !== 'administrador') await withTenant(db, clienteId, (tx) => setRole(tx, { clienteId, usuarioId: u.id }, papel, operatorNow(clock.now())))
  return { usuarioId: u.id, call: await callerFor(db, app, clienteId, u.id, clock) }
}

/** A token of person `usuarioId` with every product scope (their role still decides), as a caller. */
export async function callerFor(db: Database, app: App, clienteId: string, usuarioId: string, clock: Clock = systemClock): Promise<Caller> {
  const now = clock.now()
  const { token } = await withTenant(db, clienteId, (tx) => createToken(tx, {
    clienteId, usuarioId, nome: 'token da pessoa', escopos: ALL, expiraEm: new Date(now.getTime() + 86_400_000 * 365), dpopJkt: null,
  }, { actor: { tipo: 'usuario', id: usuarioId }, now }))
  return callerOf(app, token)
}

/** A customer with an administrador (who keeps the customer's last admin), an operador and an aprovador. */
export async function backOffice(db: Database, app: App, clock: Clock = systemClock) {
  const c = await customer(db, undefined, clock.now())
  const admin = await person(db, c.id, 'administrador', app, clock)
  const operador = await person(db, c.id, 'operador', app, clock)
  const aprovador = await person(db, c.id, 'aprovador', app, clock)
  const integration = callerOf(app, (await issueToken(db, c.id, { escopos: ALL, clock })).token)
  return { clienteId: c.id, admin, operador, aprovador, integration }
}

export const created = (res: LightMyRequestResponse, status = 201) => {
  assert.equal(res.statusCode, status, res.body)
  return res.json()
}

/** The product, the cedente and three sacados of the example, made by `call`. */
export async function exampleRegisters(call: Caller, opts: { cedente?: object, sacado?: object } = {}) {
  const produto = created(await call('POST', '/api/produtos', EXAMPLE_PRODUCT))
  const cedente = created(await call('POST', '/api/cedentes', {
    documento: CEDENTE_DOC, razao_social: 'Cedente Exemplo Ltda', perfil_iof: 'pj', municipio_ibge: SAO_PAULO, uf: 'SP',
    contas_bancarias: [{ ...CONTA, titular_documento: CEDENTE_DOC }], ...opts.cedente,
  }))
  const sacados = []
  for (const documento of ['11144477735', '12ABC34501DE35', '52998224725']) {
    sacados.push(created(await call('POST', '/api/sacados', { documento, razao_social: `Sacado ${documento}`, municipio_ibge: SAO_PAULO, uf: 'SP',
      ...opts.sacado })))
  }
  return { produto, cedente, sacados }
}

/** The example's three títulos (produto.md §2.6), on the given sacados. */
export const exampleTitles = (sacadoIds: string[]) => [
  { tipo: 'duplicata_mercantil', numero: 'T1', sacado_id: sacadoIds[0], emissao: '2026-10-01', vencimento: '2026-11-04', valor_face_centavos: 1_000_000 },
  { tipo: 'duplicata_servico', numero: 'T2', sacado_id: sacadoIds[1], emissao: '2026-10-01', vencimento: '2026-11-20', valor_face_centavos: 2_500_000 },
  { tipo: 'cheque', numero: 'T3', sacado_id: sacadoIds[2], emissao: '2026-10-02', vencimento: '2026-12-04', valor_face_centavos: 1_500_000 },
]

/** The signed term of the example's formalization. */
export const EXAMPLE_TERM = {
  termo_sha256: 'c'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia Administradora', documento: '111.444.777-35' }],
}

/** An operation of the example accepted and formalized on 2026-10-05, on the example's registers (made unless given). */
export async function formalizedExample(call: Caller, given?: Awaited<ReturnType<typeof exampleRegisters>>) {
  const regs = given ?? await exampleRegisters(call)
  const op = created(await call('POST', '/api/operacoes', {
    cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05',
    titulos: exampleTitles(regs.sacados.map((s: { id: string }) => s.id)),
  }))
  created(await call('POST', `/api/operacoes/${op.id}/cotacao`))
  created(await call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
  created(await call('POST', `/api/operacoes/${op.id}/formalizacao`, EXAMPLE_TERM), 200)
  return { op, cedente: regs.cedente, regs }
}
