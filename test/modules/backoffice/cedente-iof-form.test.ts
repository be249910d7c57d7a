// A cedente's IOF profile through the back office's form, without JavaScript (issue 31 item 4): the exemption's
// reason chosen from the list (each option with its legal basis), the Simples Nacional declaration's day and hash,
// and the API's refusals beside their fields: a profile that does not fit the document, a declaration missing.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MOTIVOS_ISENCAO } from '../../../src/modules/origination/registers/iof-profile.ts'
import { personWithPassword } from '../../helpers/account-web.ts'
import { rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { EXAMPLE_NOW, settableClock } from '../operations/helpers.ts'
import { refusalsOn, signIn } from './steps.ts'

const SHA = 'ab'.repeat(32)

describe('the back office\'s cedente form and the IOF profile', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  const setup = async () => {
    const admin = await personWithPassword(ctx.db)
    const web = await signIn(ctx.app, admin.email)
    const profiles = () => rowsAs<{ documento: string, perfil_iof: string, motivo_isencao: string | null, d: string | null, h: string | null }>(ctx.db,
      admin.clienteId, `SELECT documento, perfil_iof, motivo_isencao, simples_declarado_em::text AS d, simples_declaracao_sha256 AS h
        FROM cedentes ORDER BY seq`)
    return { web, profiles }
  }

  it('offers the reasons with their legal basis and the declaration\'s fields; registers an isento and a pj_simples', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, profiles } = await setup()
    const page = (await web.get('/conta/cedentes')).body
    const reasons = /<select id="campo-motivo_isencao" name="motivo_isencao"[^>]*>([\s\S]*?)<\/select>/.exec(page)?.[1] ?? ''
    assert.deepEqual([...reasons.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]), ['', ...MOTIVOS_ISENCAO.map((m) => m.codigo)])
    assert.ok(reasons.includes('>O cedente é uma cooperativa — Decreto 6.306/2007, art. 8º, I (alíquota zero)</option>'))
    assert.match(page, /<input id="campo-simples_data" name="simples_data" type="date"/)
    assert.match(page, /<input id="campo-simples_sha256" name="simples_sha256" type="text"/)

    await web.done('/conta/cedentes', 'form-cedente', {
      documento: '111.444.777-35', razao_social: 'Cooperativa Exemplo', perfil_iof: 'isento', motivo_isencao: 'cooperativa',
    })
    await web.done('/conta/cedentes', 'form-cedente', {
      documento: '11.222.333/0001-81', razao_social: 'Empresa do Simples Ltda', perfil_iof: 'pj_simples', simples_data: '2026-10-05',
      simples_sha256: SHA.toUpperCase(),
    })
    assert.deepEqual(await profiles(), [
      { documento: '11144477735', perfil_iof: 'isento', motivo_isencao: 'cooperativa', d: null, h: null },
      { documento: '11222333000181', perfil_iof: 'pj_simples', motivo_isencao: null, d: '2026-10-05', h: SHA },
    ])
  })

  it('a CPF as pj, a pj_simples without its declaration, a day after today: the page again, each beside its field, nothing kept', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, profiles } = await setup()
    const cpfAsPj = await web.submit('/conta/cedentes', 'form-cedente', { documento: '111.444.777-35', razao_social: 'Maria Cedente', perfil_iof: 'pj' })
    assert.equal(cpfAsPj.statusCode, 422)
    assert.match(refusalsOn(cpfAsPj.body), /erro-perfil_iof: este perfil é de empresa e pede um CNPJ, mas o documento é um CPF/)
    assert.ok(cpfAsPj.body.includes('value="Maria Cedente"'), 'what was typed is kept')

    const undeclared = await web.submit('/conta/cedentes', 'form-cedente', {
      documento: '11.222.333/0001-81', razao_social: 'Empresa', perfil_iof: 'pj_simples',
    })
    assert.equal(undeclared.statusCode, 422)
    assert.match(refusalsOn(undeclared.body), /erro-simples_data: obrigatório/)

    const tomorrow = await web.submit('/conta/cedentes', 'form-cedente', {
      documento: '11.222.333/0001-81', razao_social: 'Empresa', perfil_iof: 'pj_simples', simples_data: '2026-10-06', simples_sha256: SHA,
    })
    assert.equal(tomorrow.statusCode, 422)
    assert.match(refusalsOn(tomorrow.body), /erro-simples_data: depois de hoje \(05\/10\/2026\)/)
    assert.ok(tomorrow.body.includes(`value="${SHA}"`))
    assert.deepEqual(await profiles(), [])
  })
})
