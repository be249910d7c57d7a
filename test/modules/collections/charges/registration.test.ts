// Charges registered at their bank through its API (issue 33), against the sandbox bank over real HTTP: a charge
// under an `api` account is registered with the cobv's BR Code; a bank that is down loses nothing (the charge waits,
// its attempt counted, and is registered on a later pass once its backoff is over); a bank's refusal is final; a
// bank with no API configured leaves the charge waiting and says why; a `cnab` account's charges are not asked.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { httpBankAdapter } from '../../../../src/modules/collections/bank/http-adapter.ts'
import { backoffMs, registerDue, type RegistrationDeps } from '../../../../src/modules/collections/charges/registration.ts'
import { startSandboxBank, type SandboxBank } from '../../../../src/modules/collections/sandbox/bank-server.ts'
import { rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

// Each test's customer has its own account at the bank (the sandbox, like a bank, holds a nosso número per account).
let accounts = 0
const itau = (over: object = {}) => {
  const conta = String(56700 + ++accounts)
  const digito = String(mod10(`1234${conta}`))
  return { nome: `Itaú ${conta}`, banco: '341', agencia: '1234', conta, conta_digito: digito, carteira: '109', transporte: 'api', ...over }
}

describe('charges registered through the bank\'s API', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let bank: SandboxBank
  before(async () => { bank = await startSandboxBank({ token: 'segredo' }) })
  after(async () => { await bank.close() })

  const deps = (over: Partial<RegistrationDeps> = {}): RegistrationDeps => ({
    db: ctx.db, retry: { baseMs: 60_000, maxMs: 3_600_000 }, random: () => 0.5,
    adapterFor: (banco) => (banco === '341' ? httpBankAdapter({ baseUrl: bank.url, token: 'segredo', timeoutMs: 2000 }) : undefined), ...over,
  })

  const world = async (conta: object = itau()) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', conta))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = (i: number) => office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[i].id, conta_cobranca_id: account.id }, key())
    return { office, account, charge }
  }
  const state = async (clienteId: string, id: string) => (await rowsAs<{ estado: string, registro_tentativas: number, registro_erro: string | null,
    pix_copia_e_cola: string | null, registro_proxima_em: string | Date | null }>(ctx.db, clienteId,
  `SELECT estado, registro_tentativas, registro_erro, pix_copia_e_cola, registro_proxima_em FROM cobrancas WHERE id = '${id}'`))[0]!

  it('registers a waiting charge with its cobv\'s BR Code, once', async () => {
    const w = await world()
    const made = created(await w.charge(1))
    const pass = await registerDue(deps(), clock.now())
    assert.ok(pass.registradas >= 1)
    const s = await state(w.office.clienteId, made.id)
    assert.equal(s.estado, 'registrada')
    assert.equal(getPixPayloadInfo(s.pix_copia_e_cola!)?.pointOfInitiation, 'dynamic')
    assert.deepEqual(await registerDue(deps(), clock.now()), { registradas: 0, rejeitadas: 0, adiadas: 0 }, 'nothing left waiting')
    const read = created(await w.office.aprovador.call('GET', `/api/cobrancas/${made.id}`), 200)
    assert.equal(read.pix_copia_e_cola, s.pix_copia_e_cola)
  })

  it('loses nothing while the bank is down: the charge waits out its backoff, then registers', async () => {
    const w = await world()
    const made = created(await w.charge(2))
    bank.falhar(1)
    const first = await registerDue(deps(), clock.now())
    assert.equal(first.adiadas, 1)
    let s = await state(w.office.clienteId, made.id)
    assert.deepEqual([s.estado, s.registro_tentativas, s.registro_erro], ['a_registrar', 1, 'o banco respondeu 503'])
    // Half to all of the first delay (60 s; the jitter fixed at its middle: 45 s).
    assert.equal(new Date(s.registro_proxima_em!).getTime() - clock.now().getTime(), 45_000)
    assert.equal((await registerDue(deps(), new Date(clock.now().getTime() + 44_000))).adiadas, 0, 'not asked again before its time')
    const later = await registerDue(deps(), new Date(clock.now().getTime() + 46_000))
    assert.equal(later.registradas, 1)
    s = await state(w.office.clienteId, made.id)
    assert.equal(s.estado, 'registrada')
  })

  it('records the bank\'s refusal as final, with its reason', async () => {
    const own = itau({ carteira: '112' }) as { conta: string, conta_digito: string }
    const w = await world(own)
    const made = created(await w.charge(0))
    // The bank holds this nosso número already, for another boleto: it refuses ours.
    await httpBankAdapter({ baseUrl: bank.url, token: 'segredo', timeoutMs: 2000 }).registrar({
      conta: { banco: '341', agencia: '1234', conta: own.conta, contaDigito: own.conta_digito, carteira: '112' }, nossoNumero: made.nosso_numero_sequencia,
      seuNumero: 'outro', vencimento: '2027-01-01', valorCentavos: 1n, pagador: { documento: '11222333000181', nome: 'Outro' },
      beneficiario: { documento: '11444777000161', nome: 'Outro', cidade: 'Sao Paulo' },
    })
    const pass = await registerDue(deps(), clock.now())
    assert.equal(pass.rejeitadas, 1)
    const read = created(await w.office.aprovador.call('GET', `/api/cobrancas/${made.id}`), 200)
    assert.equal(read.estado, 'rejeitada')
  })

  it('leaves a charge of a bank with no API waiting, saying why; asks nothing for a cnab account', async () => {
    const w = await world({ nome: 'Bradesco API', banco: '237', agencia: '2949', conta: '6580', conta_digito: '0', carteira: '09', transporte: 'api' })
    const made = created(await w.charge(1))
    await registerDue(deps(), clock.now())
    const s = await state(w.office.clienteId, made.id)
    assert.deepEqual([s.estado, s.registro_erro], ['a_registrar', 'nenhuma API configurada para o banco 237'])
    const files = await world(itau({ transporte: 'cnab' }))
    const byFile = created(await files.charge(1))
    await registerDue(deps(), clock.now())
    assert.deepEqual([(await state(files.office.clienteId, byFile.id)).registro_tentativas], [0], 'a CNAB account\'s charges go by remessa')
  })

  it('backs off exponentially with jitter, up to its maximum', () => {
    const retry = { baseMs: 1000, maxMs: 60_000 }
    assert.deepEqual([0, 1, 2, 3].map((n) => backoffMs(n, retry, 1)), [1000, 2000, 4000, 8000])
    assert.deepEqual([0, 1, 2, 3].map((n) => backoffMs(n, retry, 0)), [500, 1000, 2000, 4000])
    assert.equal(backoffMs(40, retry, 1), 60_000)
  })
})
