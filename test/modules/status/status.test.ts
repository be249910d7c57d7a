import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { declareWindow, endWindow } from '../../../src/modules/status/maintenance.ts'
import { computeStatus, overallStatus, StatusSnapshot, type StatusSources } from '../../../src/modules/status/snapshot.ts'
import { usingPostgres } from '../../helpers/database.ts'
import { testApp, useTestApp } from '../../helpers/fixture.ts'
import { statusModule } from '../../../src/modules/status/index.ts'

describe('probes, version and status', () => {
  const ctx = useTestApp({ modules: [statusModule], env: { STATUS_REFRESH_MS: '60000' } })

  it('GET /api/health answers 200 JSON', async () => {
    const res = await ctx.app.inject({ url: '/api/health' })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.deepEqual(res.json(), { status: 'ok' })
  })

  it('GET /api/health/ready answers 200 when SELECT 1 works', async () => {
    const res = await ctx.app.inject({ url: '/api/health/ready' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { status: 'ok' })
  })

  it('GET /api/version: five empty strings when the build is not stamped', async () => {
    const res = await ctx.app.inject({ url: '/api/version' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { versao: '', commit: '', ambiente: '', build_em: '', schema_versao: '' })
  })

  it('GET /api/version: the stamps of a stamped build', async (t) => {
    const stamped = await testApp(t, { modules: [statusModule],
      db: ctx.db,
      env: { APP_VERSION: '1.4.2', APP_COMMIT: 'abc1234', APP_BUILD_TIME: '2026-11-21T10:00:00Z', APP_SCHEMA_VERSION: '1', AMBIENTE: 'sandbox' },
    })
    const res = await stamped.inject({ url: '/api/version' })
    assert.deepEqual(res.json(), { versao: '1.4.2', commit: 'abc1234', ambiente: 'sandbox', build_em: '2026-11-21T10:00:00Z', schema_versao: '1' })
    const status = (await stamped.inject({ url: '/api/status' })).json()
    assert.equal(status.versao, '1.4.2')
    assert.equal(status.ambiente, 'sandbox')
  })

  it('GET /api/status lists api, banco, email and limites with their modes', async () => {
    const res = await ctx.app.inject({ url: '/api/status' })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.status, 'operacional')
    assert.equal(body.manutencao, null)
    assert.ok(!Number.isNaN(Date.parse(body.verificado_em)))
    const byName = Object.fromEntries(body.servicos.map((s: { nome: string }) => [s.nome, s]))
    assert.deepEqual(Object.keys(byName), ['api', 'banco', 'email', 'limites'])
    assert.equal(byName.banco.ok, true)
    assert.equal(byName.banco.modo, usingPostgres ? 'postgres' : 'pglite')
    assert.equal(typeof byName.banco.latencia_ms, 'number')
    assert.deepEqual([byName.email.ok, byName.email.modo], [true, 'sandbox'])
    assert.equal(byName.limites.modo, process.env.REDIS_URL ? 'redis' : 'memoria')
    assert.equal(byName.limites.ok, true)
  })

  it('serves /api/status from the snapshot: a flood of requests is one check', async () => {
    const first = (await ctx.app.inject({ url: '/api/status' })).json()
    const answers = await Promise.all(Array.from({ length: 50 }, () => ctx.app.inject({ url: '/api/status' })))
    for (const a of answers) assert.equal(a.json().verificado_em, first.verificado_em)
  })

  it('shows a maintenance window in progress as status manutencao, em_curso true, anunciada true when declared ahead', async () => {
    const now = new Date()
    const w = await declareWindow(ctx.db.orm, {
      inicio: new Date(now.getTime() + 50), fim: new Date(now.getTime() + 3_600_000), mensagem: 'Atualização do banco de dados',
    }, now)
    await new Promise((r) => setTimeout(r, 80))
    try {
      const body = (await ctx.app.deps.snapshot.refresh())
      assert.equal(body.status, 'manutencao')
      assert.deepEqual(body.manutencao, {
        inicio: w.inicio!.toISOString(), fim: w.fim!.toISOString(), mensagem: 'Atualização do banco de dados', em_curso: true, anunciada: true,
      })
      const served = (await ctx.app.inject({ url: '/api/status' })).json()
      assert.deepEqual(served.manutencao, body.manutencao)
    } finally {
      await endWindow(ctx.db.orm, w.id, new Date())
    }
    const after = await ctx.app.deps.snapshot.refresh()
    assert.equal(after.manutencao, null)
    assert.equal(after.status, 'operacional')
  })

  it('shows the nearest upcoming window, not in progress, and an emergency window as not anunciada', async () => {
    const now = new Date()
    const later = await declareWindow(ctx.db.orm, { inicio: new Date(now.getTime() + 7_200_000), fim: null, mensagem: 'depois' }, now)
    const sooner = await declareWindow(ctx.db.orm, {
      inicio: new Date(now.getTime() + 3_600_000), fim: new Date(now.getTime() + 3_700_000), mensagem: 'antes',
    }, now)
    try {
      const body = await ctx.app.deps.snapshot.refresh()
      assert.equal(body.status, 'operacional')
      assert.equal(body.manutencao?.mensagem, 'antes')
      assert.equal(body.manutencao?.em_curso, false)
      assert.equal(body.manutencao?.anunciada, true)
      const emergency = await declareWindow(ctx.db.orm, { inicio: now, fim: null, mensagem: 'emergência' }, now)
      const during = await ctx.app.deps.snapshot.refresh()
      assert.equal(during.manutencao?.mensagem, 'emergência')
      assert.equal(during.manutencao?.em_curso, true)
      assert.equal(during.manutencao?.anunciada, false)
      assert.equal(during.manutencao?.fim, null)
      await endWindow(ctx.db.orm, emergency.id, new Date())
    } finally {
      await endWindow(ctx.db.orm, later.id, new Date())
      await endWindow(ctx.db.orm, sooner.id, new Date())
    }
  })
})

describe('status rules', () => {
  const ok = (nome: string) => ({ nome, ok: true })
  it('overall status: manutencao > indisponivel > degradado > operacional', () => {
    const inProgress = { inicio: null, fim: null, mensagem: null, em_curso: true, anunciada: false }
    assert.equal(overallStatus([ok('api'), ok('banco')], null), 'operacional')
    assert.equal(overallStatus([ok('api'), { nome: 'email', ok: false }], null), 'degradado')
    assert.equal(overallStatus([ok('api'), { nome: 'banco', ok: false }, { nome: 'email', ok: false }], null), 'indisponivel')
    assert.equal(overallStatus([{ nome: 'banco', ok: false }], inProgress), 'manutencao')
    assert.equal(overallStatus([ok('banco')], { ...inProgress, em_curso: false }), 'operacional')
  })

  it('the snapshot runs one check at a time however many callers ask, and keeps serving between refreshes', async () => {
    let calls = 0
    const src: StatusSources = {
      ambiente: 'sandbox', versao: '1',
      checks: [async () => { calls++; await new Promise((r) => setTimeout(r, 20)); return { nome: 'banco', ok: true, latencia_ms: 1, modo: 'pglite' } }],
      maintenance: async () => null,
      clock: { now: () => new Date() },
      log: { warn: () => {} },
    }
    const snap = new StatusSnapshot(src, 60_000)
    const results = await Promise.all(Array.from({ length: 20 }, () => snap.current()))
    assert.equal(calls, 1)
    assert.equal(new Set(results.map((r) => r.verificado_em)).size, 1)
    await snap.current()
    assert.equal(calls, 1)
    await snap.refresh()
    assert.equal(calls, 2)
    await snap.stop()
  })

  it('a refresh asked for while a computation runs sees what changed before it was asked for', async () => {
    let window: { mensagem: string } | null = null
    let release!: () => void
    const gate = new Promise<void>((r) => { release = r })
    let reads = 0
    let firstRead!: () => void
    const firstReadDone = new Promise<void>((r) => { firstRead = r })
    const src: StatusSources = {
      ambiente: 'sandbox', versao: '1', checks: [],
      maintenance: async () => {
        reads++
        const seen = window
        if (reads === 1) { firstRead(); await gate }
        return seen && { inicio: null, fim: null, mensagem: seen.mensagem, em_curso: true, anunciada: false }
      },
      clock: { now: () => new Date() },
      log: { warn: () => {} },
    }
    const snap = new StatusSnapshot(src, 60_000)
    const stale = snap.refresh()
    await firstReadDone // it has read, before the change, and waits
    window = { mensagem: 'declarada agora' }
    const fresh = Promise.all([snap.refresh(), snap.refresh()])
    release()
    assert.equal((await stale).manutencao, null)
    const [a, b] = await fresh
    assert.equal(a.manutencao?.mensagem, 'declarada agora')
    assert.equal(a, b)
    assert.equal(reads, 2)
    assert.equal((await snap.current()).manutencao?.mensagem, 'declarada agora')
    await snap.stop()
  })

  it('a database that cannot be read for windows still gives a status', async () => {
    const s = await computeStatus({
      ambiente: 'x', versao: 'y',
      checks: [async () => ({ nome: 'banco', ok: false, latencia_ms: null, modo: 'postgres' })],
      maintenance: async () => { throw new Error('connection refused') },
      clock: { now: () => new Date('2026-11-21T12:00:00Z') },
      log: { warn: () => {} },
    })
    assert.equal(s.status, 'indisponivel')
    assert.equal(s.manutencao, null)
    assert.equal(s.verificado_em, '2026-11-21T12:00:00.000Z')
  })
})
