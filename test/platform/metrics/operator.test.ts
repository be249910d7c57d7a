// What an operator's dashboards and alerts read besides the request metrics: the build's identity, each
// dependency as the /api/status snapshot sees it (the same snapshot, no checks of the metrics' own), and the
// age of the oldest message the outbox still holds.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { contactBody } from '../../helpers/app.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { createTestRedis, type TestRedis } from '../../helpers/redis.ts'
import { freePort } from '../../helpers/smtp.ts'
import { until } from '../../helpers/wait.ts'
import { parseExposition, sample, samplesOf, scrape } from './exposition.ts'

type Servico = { nome: string, ok: boolean, modo: string | null }

describe('build_info, dependency_up and the outbox age on METRICS_PORT', () => {
  let redis: TestRedis
  let port: number
  before(async () => {
    port = await freePort()
    redis = await createTestRedis()
    await redis.start()
  })
  after(() => redis?.kill())
  // The snapshot refreshes only when the test says so: what the scrape shows can be pinned to one snapshot.
  const ctx = useTestApp(() => ({
    env: { METRICS_PORT: String(port), REDIS_URL: redis.url, STATUS_REFRESH_MS: '60000', MAIL_WORKER: 'off', APP_VERSION: '2.3.4', APP_COMMIT: 'c0ffee1' },
    listen: true,
  }))

  const status = async (): Promise<Servico[]> => {
    const res = await fetch(`${ctx.base}/api/status`)
    assert.equal(res.status, 200)
    return ((await res.json()) as { servicos: Servico[] }).servicos
  }

  /** dependency_up as {dependency: [mode, value]}, and /api/status's services (api aside) in the same shape. */
  const dependencies = async (): Promise<{ scraped: Record<string, [string, number]>, served: Record<string, [string, number]> }> => ({
    scraped: Object.fromEntries(samplesOf(await scrape(port), 'dependency_up').map((s) => [s.labels.dependency, [s.labels.mode, s.value]])),
    served: Object.fromEntries((await status()).filter((s) => s.nome !== 'api').map((s) => [s.nome, [s.modo ?? '', s.ok ? 1 : 0]])),
  })

  it('build_info carries the version, the commit and the Node.js version as labels, value 1', async () => {
    const text = await scrape(port)
    assert.equal(parseExposition(text).types.get('build_info'), 'gauge')
    const series = samplesOf(text, 'build_info')
    assert.deepEqual(series, [{ name: 'build_info', labels: { version: '2.3.4', commit: 'c0ffee1', node_version: process.versions.node }, value: 1 }])
  })

  it('dependency_up has one series per dependency, with its mode, as /api/status shows them', async () => {
    const { scraped, served } = await dependencies()
    assert.deepEqual(scraped, served)
    assert.deepEqual(Object.keys(scraped).sort(), ['banco', 'email', 'limites'])
    assert.deepEqual(scraped.limites, ['redis', 1])
    assert.deepEqual(scraped.email, ['sandbox', 1])
    assert.equal(scraped.banco![1], 1)
    assert.match(scraped.banco![0], /^(postgres|pglite)$/)
  })

  it('follows the snapshot: a Redis that went down shows 0 (mode memoria) once the snapshot says so, and 1 when it is back', async () => {
    await redis.kill()
    // Still the snapshot from before: the scrape makes no check of its own.
    assert.deepEqual((await dependencies()).scraped.limites, ['redis', 1])
    await until('the snapshot sees Redis down', async () => {
      await ctx.app.deps.snapshot.refresh()
      return (await status()).find((s) => s.nome === 'limites')!.ok === false
    })
    const down = await dependencies()
    assert.deepEqual(down.scraped.limites, ['memoria', 0])
    assert.deepEqual(down.scraped, down.served)
    await redis.start()
    await until('the snapshot sees Redis back', async () => {
      await ctx.app.deps.snapshot.refresh()
      return (await status()).find((s) => s.nome === 'limites')!.ok
    }, 15_000)
    const back = await dependencies()
    assert.deepEqual(back.scraped.limites, ['redis', 1])
    assert.deepEqual(back.scraped, back.served)
  })

  it('mail_outbox_oldest_age_seconds: 0 with nothing waiting, the oldest waiting message\'s age otherwise', async () => {
    assert.equal(sample(await scrape(port), 'mail_outbox_oldest_age_seconds'), 0)
    const res = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', remoteAddress: '192.0.2.41', payload: contactBody() })
    assert.equal(res.statusCode, 202)
    // Queued two hours ago, as a message the worker never got to.
    await asOwner(ctx.db, "UPDATE outbox SET criado_em = now() - interval '2 hours' WHERE estado = 'pendente'")
    const age = await until('the scrape sees the aged message', async () => {
      const a = sample(await scrape(port), 'mail_outbox_oldest_age_seconds')
      return a !== undefined && a > 0 ? a : undefined
    })
    assert.ok(age >= 7200 && age < 7200 + 600, `age ${age}`)
  })
})
