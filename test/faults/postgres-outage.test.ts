// PostgreSQL stopped the hard way (`pg_ctl -m immediate`, as a crash or a failover) while the built service is
// writing: contacts posted, a customer's API calls with a token, the delivery worker sending. The process must
// stay up, liveness answer 200 throughout, readiness 503 while the database is gone and 200 once it is back, and
// every contact that was answered 202 be stored exactly once. Several trials, as a crash that happens "often" is
// not caught by one.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pg from 'pg'
import { openDatabase } from '../../src/platform/db/database.ts'
import { contactBody } from '../helpers/app.ts'
import { customer, operatorToken } from '../helpers/credentials.ts'
import { onPostgresOnly } from '../helpers/database.ts'
import { defer } from '../helpers/fixture.ts'
import { call, loop, postJson, summary, type Answer } from '../helpers/load.ts'
import { createPgCluster, postgresBinDir } from '../helpers/pg-cluster.ts'
import { spawnService, waitForOutput, type ServiceProcess } from '../helpers/service-process.ts'
import { createTestSmtp } from '../helpers/smtp.ts'
import { until } from '../helpers/wait.ts'

const TRIALS = 4
const skip = onPostgresOnly('needs PostgreSQL binaries to run a cluster of its own: runs in the PostgreSQL suite (DATABASE_URL set)')
  || (postgresBinDir() ? false : 'no PostgreSQL binaries (initdb, pg_ctl) on this machine')

describe('PostgreSQL stopped under write load', { skip }, () => {
  it(`the process stays up, liveness 200, readiness 503 then 200, every accepted contact stored once (${TRIALS} trials)`, async (t) => {
    const cluster = await createPgCluster()
    defer(t, () => cluster.remove())
    const smtp = await createTestSmtp()
    await smtp.start()
    defer(t, () => smtp.stop())

    const service: ServiceProcess = await spawnService(t, {
      DATABASE_URL: cluster.url(),
      SMTP_URL: smtp.url,
      // The load comes from this test's loopback address: rate limits would answer it 429 instead of writing.
      RATE_LIMIT_ALLOWLIST: '127.0.0.1/32',
      MAIL_POLL_MS: '50',
      MAIL_RETRY_BASE_MS: '200',
      MAIL_RETRY_MAX_MS: '1000',
      STATUS_REFRESH_MS: '200',
      DB_TIMEOUT_MS: '1000',
      SPAM_MIN_FILL_MS: '0',
    })
    await waitForOutput(service, /"msg":"service ready"/)

    // A customer and its token, made as the operator would, in the database the service migrated.
    const db = await openDatabase({ databaseUrl: cluster.url() })
    const { token } = await customer(db).then((c) => operatorToken(db, c.id))
    await db.close()

    const accepted: string[] = []
    const contactAnswers: Answer[] = []
    const customerAnswers: Answer[] = []
    const healthAnswers: Answer[] = []
    const delivered = () => smtp.received.length

    for (let trial = 1; trial <= TRIALS; trial++) {
      let loading = true
      const stop = () => !loading
      const postContact = async () => {
        const answer = await postJson(`${service.base}/api/site/contato`, contactBody())
        if (answer.status === 202) accepted.push(String(answer.body!.protocolo))
        return answer
      }
      const callApi = () => call(`${service.base}/api/conta`, { headers: { authorization: `Bearer ${token}` } })
      const loops = [
        loop(stop, 2000, contactAnswers, postContact), loop(stop, 2000, contactAnswers, postContact),
        loop(stop, 2000, contactAnswers, postContact),
        loop(stop, 2000, customerAnswers, callApi), loop(stop, 2000, customerAnswers, callApi),
        loop(stop, 20_000, healthAnswers, () => call(`${service.base}/api/health`)),
      ]

      // Writing for real before the stop: contacts accepted and mail delivered in this trial.
      const [acceptedBefore, deliveredBefore] = [accepted.length, delivered()]
      await until(`trial ${trial}: contacts accepted and delivered under load`,
        () => accepted.length >= acceptedBefore + 10 && delivered() > deliveredBefore, 30_000)

      cluster.stopImmediately()
      await until(`trial ${trial}: readiness 503 once PostgreSQL is gone`, async () => {
        assert.ok(service.alive(), `the process exited once PostgreSQL was gone:\n${service.output().slice(-3000)}`)
        const ready = await call(`${service.base}/api/health/ready`)
        return ready.status === 503 && ready.detail === 'banco_indisponivel'
      }, 10_000)
      // Load keeps arriving while the database is gone: refused with a 503, not dropped with the process.
      const [contactsBefore, callsBefore] = [contactAnswers.length, customerAnswers.length]
      await until(`trial ${trial}: contacts and customer calls refused while PostgreSQL is down`, () => {
        assert.ok(service.alive(), `the process exited while PostgreSQL was down:\n${service.output().slice(-3000)}`)
        return contactAnswers.slice(contactsBefore).some((a) => a.status === 503) && customerAnswers.slice(callsBefore).some((a) => a.status === 503)
      })

      cluster.start()
      await until(`trial ${trial}: readiness 200 once PostgreSQL is back`, async () => (await call(`${service.base}/api/health/ready`)).status === 200, 30_000)
      loading = false
      await Promise.all(loops)
      assert.ok(service.alive(), `the process exited in trial ${trial}:\n${service.output()}`)
    }

    assert.doesNotMatch(service.output(), /Connection terminated unexpectedly[\s\S]*second error|closing after an error/, 'no error reached the process')
    assert.deepEqual(summary(healthAnswers), ['200'], 'liveness answered 200 throughout')
    // A contact is accepted or refused as unavailable (the client retries); a customer's call served or refused alike.
    assert.deepEqual(summary(contactAnswers).filter((s) => s !== '202'), ['503 servico_indisponivel'], 'contacts: 202, or 503 while down')
    assert.deepEqual(summary(customerAnswers).filter((s) => s !== '200'), ['503 banco_indisponivel'], 'customer calls: 200, or 503 while down')

    // Every contact answered 202 is stored, once.
    const client = new pg.Client({ connectionString: cluster.url() })
    await client.connect()
    try {
      const { rows } = await client.query<{ protocolo: string, n: number }>(
        'SELECT protocolo, count(*)::int AS n FROM contato WHERE protocolo = ANY($1) GROUP BY protocolo', [accepted])
      assert.equal(new Set(accepted).size, accepted.length, 'no protocolo answered twice')
      assert.deepEqual(rows.filter((r) => r.n !== 1), [], 'stored once each')
      assert.equal(rows.length, accepted.length, 'every accepted contact is stored')
      // And the worker, through the outages, delivers each of them in the end.
      await until('every accepted contact delivered', async () => (await client.query(
        "SELECT count(*)::int AS n FROM outbox WHERE protocolo = ANY($1) AND estado = 'enviado'", [accepted])).rows[0].n === accepted.length, 30_000)
    } finally {
      await client.end()
    }
  })
})
