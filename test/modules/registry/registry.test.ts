// The registry of duplicatas escriturais (issue 34) through the sandbox registradora, a real HTTP server: a product
// that asks for it accepts an operation only with each duplicata's query clean; the acceptance queues the assignment's
// registration, which goes through once although the registradora fails twice first; a duplicata already assigned to
// another buyer, encumbered, unknown or registered for another value blocks the acceptance, saying why; the mirror
// keeps what the registry said; the callback only makes the service read the request back; the events are written.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { rowsAs } from '../../helpers/credentials.ts'
import { freshCnpj } from '../../helpers/cnpj.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'
import {
  CEDENTE_DOC, backOffice, created, EXAMPLE_NOW, EXAMPLE_TERM, EXAMPLE_PRODUCT, exampleRegisters, exampleTitles, key, settableClock,
} from '../operations/helpers.ts'
import { httpRegistradoraAdapter } from '../../../src/modules/registry/http-adapter.ts'
import { startSandboxRegistradora, type SandboxRegistradora } from '../../../src/modules/registry/sandbox-server.ts'
import { registryDue, type RegistryDeps } from '../../../src/modules/registry/worker.ts'
import type { RegistradoraAdapter } from '../../../src/modules/registry/adapter.ts'

const TOKEN = 'segredo-da-registradora'
const POLL_MS = 60_000

describe('the registry of duplicatas escriturais', () => {
  let sandbox: SandboxRegistradora
  before(async () => {
    sandbox = await startSandboxRegistradora({ token: TOKEN })
  })
  after(() => sandbox.close())
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp(() => ({
    deps: { clock }, env: { MAIL_WORKER: 'off', WEBHOOK_WORKER: 'off', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', REGISTRADORA_URL: sandbox.url,
      REGISTRADORA_TOKEN: TOKEN, REGISTRADORA_POLL_MS: String(POLL_MS) },
  }))
  const worker = (): RegistryDeps => ({
    db: ctx.db, adapter: () => httpRegistradoraAdapter({ baseUrl: sandbox.url, token: TOKEN, timeoutMs: 5000 }),
    config: { retry: { baseMs: 1000, maxMs: 60_000 }, pollMs: POLL_MS }, random: () => 0.5,
  })
  /** A pass of the worker, `ms` after the clock's now (which it then is). */
  const pass = async (ms = 0) => {
    clock.set(new Date(clock.now().getTime() + ms).toISOString())
    return registryDue(worker(), clock.now())
  }

  /** A customer with its CNPJ, a product that asks for the registry, the example's registers, a webhook (for the events). */
  async function world() {
    const office = await backOffice(ctx.db, ctx.app, clock)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE clientes SET documento = $2 WHERE id = $1', [office.clienteId, freshCnpj()]))
    const regs = await exampleRegisters(office.admin.call)
    const produto = created(await office.admin.call('POST', '/api/produtos', { ...EXAMPLE_PRODUCT, nome: 'Com registro', exige_registro: true }))
    created(await office.admin.call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', eventos: ['registro.*'] }))
    const operation = async (titulos: object[]) => created(await office.operador.call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: produto.id, data_operacao: '2026-10-05', titulos,
    }))
    const registro = async (tituloId: string) => created(await office.operador.call('GET', `/api/titulos/${tituloId}/registro`), 200)
    const rows = <R = Record<string, unknown>>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
    return { ...office, regs, operation, registro, rows, sacados: regs.sacados.map((s: { id: string }) => s.id) as string[] }
  }

  it('registers the assignment once at acquisition, though the registradora fails twice first; a duplicata assigned to that buyer then blocks another',
    async () => {
      clock.set(EXAMPLE_NOW)
      const a = await world()
      const [t1, , t3] = exampleTitles(a.sacados)
      const op = await a.operation([t1!, t3!])
      const [dup, cheque] = op.titulos
      created(await a.operador.call('POST', `/api/operacoes/${op.id}/cotacao`))
      const accept = () => a.operador.call('POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: 1 }, key())
      let res = await accept()
      assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'registro_impedido',
        titulos: [{ id: dup.id, numero: 'T1', registro_estado: 'nao_consultado', registro_situacao: null }] }], 'the cheque is not in the registry')
      res = await a.operador.call('POST', `/api/titulos/${cheque.id}/registro/consulta`, undefined, key())
      assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'titulo_sem_registro', tipo: 'cheque' }])

      const asked = created(await a.operador.call('POST', `/api/titulos/${dup.id}/registro/consulta`, undefined, key()), 202)
      assert.deepEqual([asked.tipo, asked.estado], ['consulta', 'pendente'])
      assert.equal(created(await a.operador.call('POST', `/api/titulos/${dup.id}/registro/consulta`, undefined, key()), 202).id, asked.id,
        'a query waiting is answered, not sent twice')
      assert.deepEqual(await pass(), { concluidos: 0, recusados: 0, processando: 1, adiados: 0 })
      const taken = (await a.registro(dup.id)).pedidos[0]
      assert.match(taken.protocolo, /^SBX-/)
      // The registradora's callback: the service reads the request back from the registradora and records what it says.
      await until('the sandbox has done it', async () => {
        const r = await ctx.app.inject({ method: 'POST', url: '/api/registradora/callback', payload: { protocolo: taken.protocolo } })
        assert.equal(r.statusCode, 204)
        return (await a.registro(dup.id)).registro_estado === 'livre'
      })
      assert.equal((await ctx.app.inject({ method: 'POST', url: '/api/registradora/callback', payload: { protocolo: 'SBX-desconhecido' } })).statusCode, 204)

      res = await accept()
      assert.equal(res.statusCode, 200, res.body)
      // Formalized, the cedente is not paid before the assignment is registered.
      created(await a.operador.call('POST', `/api/operacoes/${op.id}/formalizacao`, EXAMPLE_TERM), 200)
      const pay = () => a.operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key())
      res = await pay()
      assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'registro_impedido',
        titulos: [{ id: dup.id, numero: 'T1', registro_estado: 'cessao_pendente', registro_situacao: null }] }])
      let reg = await a.registro(dup.id)
      assert.deepEqual([reg.registro_estado, reg.pedidos[0].tipo, reg.pedidos[0].estado], ['cessao_pendente', 'cessao', 'pendente'])
      assert.equal((await a.registro(cheque.id)).pedidos.length, 0, 'no assignment asked for the cheque')

      sandbox.falhar(2)
      assert.deepEqual(await pass(), { concluidos: 0, recusados: 0, processando: 0, adiados: 1 })
      reg = await a.registro(dup.id)
      assert.deepEqual([reg.pedidos[0].tentativas, reg.pedidos[0].erro], [1, 'a registradora respondeu 503'])
      assert.deepEqual(await pass(), { concluidos: 0, recusados: 0, processando: 0, adiados: 0 }, 'not before its backoff')
      assert.deepEqual(await pass(1000), { concluidos: 0, recusados: 0, processando: 0, adiados: 1 })
      assert.deepEqual(await pass(2000), { concluidos: 0, recusados: 0, processando: 1, adiados: 0 })
      await until('the sandbox has registered it', () => sandbox.cessoes(CEDENTE_DOC, 'T1') === 1)
      assert.deepEqual(await pass(POLL_MS), { concluidos: 1, recusados: 0, processando: 0, adiados: 0 }, 'read back at the poll')
      assert.deepEqual(await pass(POLL_MS), { concluidos: 0, recusados: 0, processando: 0, adiados: 0 })
      reg = await a.registro(dup.id)
      assert.equal(reg.registro_estado, 'cedido')
      assert.equal(sandbox.cessoes(CEDENTE_DOC, 'T1'), 1, 'registered once')
      assert.deepEqual(reg.eventos.map((e: { tipo: string, situacao: string }) => `${e.tipo}:${e.situacao}`),
        ['consulta:recebido', 'consulta:concluido', 'cessao:recebido', 'cessao:concluido'])
      assert.equal(reg.eventos[3].dados.resultado.cessionario.length, 14, 'the mirror keeps what the registry said')
      const events = await a.rows<{ tipo: string }>(`SELECT tipo FROM eventos WHERE recurso = 'titulo:${dup.id}' ORDER BY seq`)
      assert.deepEqual(events.map((e) => e.tipo), ['registro.consulta_pendente', 'registro.livre', 'registro.cessao_pendente', 'registro.cedido'])
      // Append-only even for the database's owner (the service's role has no UPDATE on it at all).
      await assert.rejects(ctx.db.ownerTransaction((tx) => tx.query(`UPDATE registro_eventos SET tipo = 'baixa' WHERE titulo_id = $1`, [dup.id])),
        /append-only/)
      created(await pay(), 201)
      // A query of an assigned duplicata reads the registry and mirrors it, but never undoes the assignment.
      created(await a.operador.call('POST', `/api/titulos/${dup.id}/registro/consulta`, undefined, key()), 202)
      await pass()
      await until('the query is answered', async () => (await pass(POLL_MS)).concluidos === 1)
      reg = await a.registro(dup.id)
      assert.deepEqual([reg.registro_estado, reg.pedidos[0].tipo, reg.pedidos[0].estado], ['cedido', 'consulta', 'concluido'])

      // Another customer offered the same duplicata (the same cedente and number): the registry says it is assigned.
      const b = await world()
      const opB = await b.operation(exampleTitles(b.sacados).slice(0, 1))
      created(await b.operador.call('POST', `/api/operacoes/${opB.id}/cotacao`))
      created(await b.operador.call('POST', `/api/titulos/${opB.titulos[0].id}/registro/consulta`, undefined, key()), 202)
      await pass()
      await until('the sandbox has answered', async () => (await pass(POLL_MS)).concluidos === 1)
      res = await b.operador.call('POST', `/api/operacoes/${opB.id}/aceite`, { cotacao_versao: 1 }, key())
      assert.deepEqual([res.statusCode, res.json()], [409, { detail: 'registro_impedido',
        titulos: [{ id: opB.titulos[0].id, numero: 'T1', registro_estado: 'impedido', registro_situacao: 'cedida_a_terceiro' }] }])
      assert.equal((await b.operador.call('GET', `/api/titulos/${dup.id}/registro`)).statusCode, 404, 'another customer\'s título is not found')
      assert.equal((await b.operador.call('POST', `/api/titulos/${dup.id}/registro/consulta`, undefined, key())).statusCode, 404)

      // Cancelled after acceptance, the assignment is written off at the registry.
      const [payment] = await a.rows<{ id: string }>(`SELECT id FROM desembolsos WHERE operacao_id = '${op.id}'`)
      created(await a.aprovador.call('POST', `/api/desembolsos/${payment!.id}/recusa`, { motivo: 'desistência do cedente' }, key()), 200)
      created(await a.operador.call('POST', `/api/operacoes/${op.id}/cancelamento`, { motivo: 'desistência do cedente' }), 200)
      assert.deepEqual(await pass(POLL_MS), { concluidos: 0, recusados: 0, processando: 1, adiados: 0 })
      await until('the write-off is done', async () => (await pass(POLL_MS)).concluidos === 1)
      reg = await a.registro(dup.id)
      assert.deepEqual([reg.registro_estado, reg.pedidos[0].tipo], ['baixado', 'baixa'])
    })

  it('says why a duplicata is not free: encumbered, unknown, registered for another value; a query never undoes an assignment', async () => {
    clock.set(EXAMPLE_NOW)
    const a = await world()
    const base = exampleTitles(a.sacados)[0]!
    const op = await a.operation(['ONERADA-1', 'INEXISTENTE-1', 'DIVERGE-1', 'LIVRE-1'].map((numero) => ({ ...base, numero })))
    for (const t of op.titulos) created(await a.operador.call('POST', `/api/titulos/${t.id}/registro/consulta`, undefined, key()), 202)
    await pass()
    await until('every query answered', async () => {
      await pass(POLL_MS)
      return (await a.rows(`SELECT 1 FROM registro_pedidos WHERE estado IN ('pendente', 'processando')`)).length === 0
    })
    const states = await a.rows<{ numero: string, registro_estado: string, registro_situacao: string | null }>(
      'SELECT numero, registro_estado, registro_situacao FROM titulos ORDER BY numero')
    assert.deepEqual(states.map((s) => [s.numero, s.registro_estado, s.registro_situacao]), [
      ['DIVERGE-1', 'impedido', 'valor_divergente'], ['INEXISTENTE-1', 'impedido', 'duplicata_desconhecida'], ['LIVRE-1', 'livre', null],
      ['ONERADA-1', 'impedido', 'onerada']])
    const refused = (await a.registro(op.titulos[1].id)).eventos.at(-1)
    assert.deepEqual([refused.situacao, refused.dados.codigo], ['recusado', 'duplicata_desconhecida'])
  })

  it('an answer the service cannot keep postpones that request alone; a lost protocol or a refused token is no refusal', async () => {
    clock.set(EXAMPLE_NOW)
    const a = await world()
    const base = exampleTitles(a.sacados)[0]!
    const op = await a.operation(['X-1', 'X-2', 'X-3'].map((numero) => ({ ...base, numero })))
    for (const t of op.titulos) created(await a.operador.call('POST', `/api/titulos/${t.id}/registro/consulta`, undefined, key()), 202)
    const [first, second, third] = op.titulos
    const ids = new Map((await a.rows<{ id: string, titulo_id: string }>('SELECT id, titulo_id FROM registro_pedidos')).map((r) => [r.id, r.titulo_id]))
    const odd: RegistradoraAdapter = {
      async enviar(p) {
        const titulo = ids.get(p.id)
        if (titulo === first.id) throw new Error('a driver\'s failure')
        if (titulo === second.id) return { ok: true, situacao: 'processando', protocolo: 'PERDIDO', resposta: { nota: 'com \u0000 e \ud800 dentro' } }
        return { ok: false, tipo: 'recusada', codigo: 'nao_autorizado', motivo: 'token', resposta: null }
      },
      async situacao() { return { ok: false, tipo: 'indisponivel', motivo: 'protocolo desconhecido (404)', reenviar: true } },
    }
    const deps = { ...worker(), adapter: () => odd }
    assert.deepEqual(await registryDue(deps, clock.now()), { concluidos: 0, recusados: 1, processando: 1, adiados: 1 })
    const state = async (id: string) => (await a.registro(id)).pedidos[0]
    assert.deepEqual([(await state(first.id)).estado, (await state(first.id)).tentativas], ['pendente', 1], 'postponed, the pass went on')
    assert.match((await state(first.id)).erro, /não pôde guardar/)
    assert.equal((await state(second.id)).estado, 'processando', 'a NUL in the answer is kept without it')
    clock.set(new Date(clock.now().getTime() + POLL_MS).toISOString())
    assert.deepEqual((await registryDue(deps, clock.now())).recusados, 0, 'a protocol the registradora lost is no refusal')
    assert.equal((await state(second.id)).estado, 'pendente', 'it is sent again, under its id')
    assert.equal((await a.registro(third.id)).registro_estado, 'impedido', 'a refusal the adapter reports stays a refusal')
  })
})
