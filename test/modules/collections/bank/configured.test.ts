// The bank as configured (BANCO_API_*): the settings read and refused; in development with no URL the labelled
// sandbox bank starts in-process on first use and registers a boleto over HTTP, and stops with close (a call after
// that is an outage, starting no second one); in production with no URL there is no adapter; with a URL, that API.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bankConnection } from '../../../../src/modules/collections/bank/configured.ts'
import { loadConfig } from '../../../../src/config.ts'

const PROD = { AMBIENTE: 'producao', SMTP_URL: 'smtp://mail:25' }
const quiet = { info: () => {} }
const pedido = {
  conta: { banco: '341' as const, agencia: '1248', conta: '02124', contaDigito: '6', carteira: '109' }, nossoNumero: '77', seuNumero: 'NF 1',
  vencimento: '2026-12-15', valorCentavos: 1000n, pagador: { documento: '11222333000181', nome: 'Comprador' },
  beneficiario: { documento: '11444777000161', nome: 'Factoring', cidade: 'Sao Paulo' },
}

describe('the configured bank', () => {
  it('reads BANCO_API_* with their defaults, and refuses what could not work', () => {
    assert.deepEqual(loadConfig({}).banco, { apiUrl: undefined, apiToken: '', timeoutMs: 10_000, retry: { baseMs: 30_000, maxMs: 3_600_000 } })
    const set = loadConfig({ BANCO_API_URL: 'https://api.banco.example/v1/', BANCO_API_TOKEN: 't', BANCO_API_TIMEOUT_MS: '2500',
      BANCO_RETRY_BASE_MS: '1000', BANCO_RETRY_MAX_MS: '60000' }).banco
    assert.deepEqual(set, { apiUrl: 'https://api.banco.example/v1', apiToken: 't', timeoutMs: 2500, retry: { baseMs: 1000, maxMs: 60_000 } })
    assert.throws(() => loadConfig({ BANCO_API_URL: 'ftp://banco' }), /BANCO_API_URL must start with https:\/\/ or http:\/\//)
    assert.throws(() => loadConfig({ BANCO_API_TIMEOUT_MS: '50' }), /BANCO_API_TIMEOUT_MS must be a whole number from 100 to 120000/)
    assert.throws(() => loadConfig({ BANCO_RETRY_BASE_MS: '5000', BANCO_RETRY_MAX_MS: '1000' }), /BANCO_RETRY_MAX_MS \(1000\) must not be less/)
    assert.throws(() => loadConfig({ ...PROD, BANCO_API_URL: 'https://api.banco.example' }), /BANCO_API_URL needs BANCO_API_TOKEN in production/)
  })

  it('in development without a URL, starts the sandbox bank on first use, registers through it, and stops it', async () => {
    const lines: string[] = []
    const c = bankConnection(loadConfig({}), { info: (_f, m) => { lines.push(m) } })
    assert.equal(c.modo, 'sandbox')
    assert.deepEqual(lines, [], 'nothing started before it is needed')
    const r = await c.adapterFor('341')!.registrar(pedido)
    assert.ok(r.ok, JSON.stringify(r))
    assert.equal((r.resposta as { sandbox: boolean }).sandbox, true)
    assert.match(lines.join('\n'), /^SANDBOX BANK started in-process/)
    await c.close()
    const after = await c.adapterFor('341')!.consultar({ conta: pedido.conta, nossoNumero: '77' })
    assert.deepEqual(after, { ok: false, tipo: 'indisponivel', motivo: 'banco sandbox parado com o serviço' })
    assert.equal(lines.length, 1, 'no second sandbox started')
  })

  it('the same connection for the same loaded settings (the jobs and the app share the sandbox)', () => {
    const config = loadConfig({})
    assert.equal(bankConnection(config, quiet), bankConnection(config, quiet))
    assert.notEqual(bankConnection(loadConfig({}), quiet), bankConnection(config, quiet))
  })

  it('in production without a URL, no adapter (charges wait, saying so); with one, the API it names', async () => {
    const none = bankConnection(loadConfig(PROD), quiet)
    assert.deepEqual([none.modo, none.adapterFor('341')], ['nenhum', undefined])
    const api = bankConnection(loadConfig({ ...PROD, BANCO_API_URL: 'http://127.0.0.1:9/v1', BANCO_API_TOKEN: 't', BANCO_API_TIMEOUT_MS: '500' }), quiet)
    assert.equal(api.modo, 'api')
    const r = await api.adapterFor('001')!.consultar({ conta: pedido.conta, nossoNumero: '1' })
    assert.equal(r.ok ? 'ok' : r.tipo, 'indisponivel', 'nobody listens there: an outage, to be tried again')
  })
})
