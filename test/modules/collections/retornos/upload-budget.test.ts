// Bank files have their own budget (rateLimits.arquivos; red team, issue 33): each may store 100,000 rows, so a
// client past it is answered 429 with Retry-After before its body is read, while its reads go on.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { issueToken } from '../../../helpers/api-credentials.ts'
import { serviceConfigFile } from '../../../helpers/app.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, key, settableClock } from '../../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }

describe('the retornos\' own budget', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({
    env: { MAIL_WORKER: 'off', SERVICE_CONFIG_FILE: serviceConfigFile({ rateLimits: { arquivos: { max: 2, windowSeconds: 600 } } }) },
    deps: { clock },
  }))

  it('answers the third file in ten minutes 429 with Retry-After; reads are not counted in it', async () => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock })
    const send = () => ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`, payload: 'x',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
    assert.equal((await send()).statusCode, 422)
    assert.equal((await send()).statusCode, 422)
    const third = await send()
    assert.equal(third.statusCode, 429, third.body)
    assert.ok(Number(third.headers['retry-after']) > 0)
    const list = await ctx.app.inject({ method: 'GET', url: '/api/cnab/retornos', headers: { authorization: `Bearer ${token}` } })
    assert.equal(list.statusCode, 200)
  })
})
